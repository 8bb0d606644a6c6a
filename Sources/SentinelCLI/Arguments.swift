import ArgumentParser
import Support

/// Size arguments in DESIGN §3's syntax (`64M`, `5M`, `1G`).
struct SizeArgument: ExpressibleByArgument {
    let bytes: UInt64
    init?(argument: String) {
        guard let bytes = Quantity.bytes(argument) else { return nil }
        self.bytes = bytes
    }
    static var defaultCompletionKind: CompletionKind { .default }
}
