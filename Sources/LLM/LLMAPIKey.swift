import Foundation

/// An API key that never shows itself: its descriptions and mirror say `<redacted>`, so a
/// configuration or client can be printed, dumped or logged without leaking it. Only this
/// module reads the value (to build the `Authorization` header and to scrub messages).
public struct LLMAPIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The secret itself; internal on purpose.
    let value: String

    /// Wraps `value`.
    public init(_ value: String) {
        self.value = value
    }

    /// Always `<redacted>`.
    public var description: String { "<redacted>" }
    /// Always `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// No children: `dump` and debuggers see nothing inside.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// `text` with every occurrence of the key replaced by `<redacted>`: provider messages
    /// (and, in principle, anything echoed back) pass through here before they reach an error.
    func scrub(_ text: String) -> String {
        guard !value.isEmpty, text.contains(value) else { return text }
        return text.replacingOccurrences(of: value, with: "<redacted>")
    }
}
