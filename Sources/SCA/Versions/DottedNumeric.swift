/// The fallback ordering for ecosystems without a scheme of their own: only plain dotted numbers
/// (`1`, `1.2`, `10.0.3.4`), compared component-wise with implicit zero padding (`1.2 == 1.2.0`).
/// Anything else (qualifiers, letters) is rejected rather than guessed, so a Maven `1.0-beta` or a
/// Debian `1:2.3-4` never gets a wrong answer: such ranges are skipped and only exact `versions`
/// entries match.
public struct DottedNumericScheme: VersionScheme {
    /// Makes the scheme; it has no options.
    public init() {}
    /// The scheme's name for messages.
    public var name: String { "dotted numeric" }
    /// Parses `text`; nil when it is not a valid version in this scheme.
    public func parse(_ text: String) -> DottedNumericVersion? { DottedNumericVersion(text) }
    /// A spelling equal for versions of equal precedence.
    public func equalityKey(_ version: DottedNumericVersion) -> String { version.description }
    /// The release line (first component) a fix must share to count as same major.
    public func majorKey(_ version: DottedNumericVersion) -> String { version.parts.first?.digits ?? "0" }
}

/// A dotted numeric version with trailing zeros dropped.
public struct DottedNumericVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The components, e.g. [1, 2] for `1.2`.
    public let parts: [Natural]

    /// Parses plain dotted numbers; nil for anything else.
    public init?(_ text: String) {
        let body = text.trimmingASCIISpaces()
        var parts = [Natural]()
        for piece in body.split(separator: ".", omittingEmptySubsequences: false) {
            guard let n = Natural(piece) else { return nil }
            parts.append(n)
        }
        while parts.count > 1, parts.last?.isZero == true { parts.removeLast() }
        self.parts = parts
    }

    /// The components joined by dots, without leading zeros.
    public var description: String { parts.map(\.digits).joined(separator: ".") }

    /// Component-wise, a missing component read as 0.
    public static func < (a: DottedNumericVersion, b: DottedNumericVersion) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let x = i < a.parts.count ? a.parts[i] : .zero, y = i < b.parts.count ? b.parts[i] : .zero
            if x != y { return x < y }
        }
        return false
    }
}
