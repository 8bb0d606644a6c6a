/// The fallback ordering for ecosystems without a scheme of their own: only plain dotted numbers
/// (`1`, `1.2`, `10.0.3.4`), compared component-wise with implicit zero padding (`1.2 == 1.2.0`).
/// Anything else (qualifiers, letters) is rejected rather than guessed, so a Maven `1.0-beta` or a
/// Debian `1:2.3-4` never gets a wrong answer: such ranges are skipped and only exact `versions`
/// entries match.
public struct DottedNumericScheme: VersionScheme {
    public init() {}
    public var name: String { "dotted numeric" }
    public func parse(_ text: String) -> DottedNumericVersion? { DottedNumericVersion(text) }
    public func equalityKey(_ version: DottedNumericVersion) -> String { version.description }
    public func majorKey(_ version: DottedNumericVersion) -> String { version.parts.first?.digits ?? "0" }
}

/// A dotted numeric version with trailing zeros dropped.
public struct DottedNumericVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    public let parts: [Natural]

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

    public var description: String { parts.map(\.digits).joined(separator: ".") }

    public static func < (a: DottedNumericVersion, b: DottedNumericVersion) -> Bool {
        for i in 0..<max(a.parts.count, b.parts.count) {
            let x = i < a.parts.count ? a.parts[i] : .zero, y = i < b.parts.count ? b.parts[i] : .zero
            if x != y { return x < y }
        }
        return false
    }
}
