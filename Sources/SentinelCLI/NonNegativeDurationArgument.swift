import ArgumentParser
import Support

/// A duration argument that may be zero (`0s` for no backoff, `--max-db-age 0`); otherwise as
/// `DurationArgument`.
struct NonNegativeDurationArgument: ExpressibleByArgument, ExpressibleByStringLiteral, Sendable {
    let seconds: Double
    /// The words as given: help shows a default as written, and a worker passes them on.
    let text: String

    init?(argument: String) {
        guard let seconds = Quantity.seconds(argument) else { return nil }
        self.seconds = seconds
        self.text = argument
    }

    /// A default in the source (`= "10s"`); not a duration is a programming error.
    init(stringLiteral value: String) {
        guard let parsed = Self(argument: value) else { preconditionFailure("'\(value)' is not a duration") }
        self = parsed
    }

    var defaultValueDescription: String { text }
}
