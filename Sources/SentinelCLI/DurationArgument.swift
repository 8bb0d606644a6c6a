import ArgumentParser
import Support

/// A duration argument in DESIGN §3's syntax (`30s`, `5m`, `6h`, `7d`), more than zero. A bad
/// value is ArgumentParser's usage error, as for every typed option.
struct DurationArgument: ExpressibleByArgument, ExpressibleByStringLiteral, Sendable {
    let seconds: Double
    /// The words as given: help shows a default as written, and a worker passes them on.
    let text: String

    init?(argument: String) {
        guard let seconds = Quantity.seconds(argument), seconds > 0 else { return nil }
        self.seconds = seconds
        self.text = argument
    }

    /// A default in the source (`= "30s"`); not a duration is a programming error.
    init(stringLiteral value: String) {
        guard let parsed = Self(argument: value) else { preconditionFailure("'\(value)' is not a duration") }
        self = parsed
    }

    var defaultValueDescription: String { text }
}
