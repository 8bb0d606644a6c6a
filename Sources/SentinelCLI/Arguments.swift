import ArgumentParser
import Support

/// Size and duration arguments in DESIGN §3's syntax (`64M`, `30s`).
struct SizeArgument: ExpressibleByArgument {
    let bytes: UInt64
    init?(argument: String) {
        guard let bytes = Quantity.bytes(argument) else { return nil }
        self.bytes = bytes
    }
    static var defaultCompletionKind: CompletionKind { .default }
}

struct DurationArgument: ExpressibleByArgument {
    let seconds: Double
    init?(argument: String) {
        guard let seconds = Quantity.seconds(argument), seconds > 0 else { return nil }
        self.seconds = seconds
    }
}
