/// RubyGems' `Gem::Version` ordering: the version is split into runs of digits and runs of
/// letters (a `-` counts as `.pre.`), trailing zeros of the release and pre-release parts are
/// dropped, then segments compare pairwise with a missing segment read as 0; a letter segment
/// (a pre-release) sorts before any number, numbers compare numerically, letters bytewise.
public struct RubyGemsScheme: VersionScheme {
    /// Makes the scheme; it has no options.
    public init() {}
    /// The scheme's name for messages.
    public var name: String { "RubyGems" }
    /// Parses `text`; nil when it is not a valid version in this scheme.
    public func parse(_ text: String) -> RubyGemsVersion? { RubyGemsVersion(text) }
    /// A spelling equal for versions of equal precedence.
    public func equalityKey(_ version: RubyGemsVersion) -> String { version.description }
    /// The release line (first component) a fix must share to count as same major.
    public func majorKey(_ version: RubyGemsVersion) -> String {
        if case .number(let n)? = version.segments.first { return n.digits }
        return "0"
    }
}

/// One parsed RubyGems version, kept in canonical segments.
public struct RubyGemsVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// A digit run or a letter run.
    public enum Segment: Hashable, Sendable {
        case number(Natural)
        case text(String)
    }
    /// Canonical segments (trailing zeros dropped from each part).
    public let segments: [Segment]

    /// Parses `text` with RubyGems' validity rule
    /// (`digits(.alnum)*(-alnum-or-dash(.alnum-or-dash)*)?`, surrounding spaces allowed).
    public init?(_ text: String) {
        let trimmed = text.trimmingASCIISpaces()
        guard !trimmed.isEmpty else { return nil }
        let halves = trimmed.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let main = halves[0].split(separator: ".", omittingEmptySubsequences: false)
        guard let head = main.first, Natural(head) != nil else { return nil }
        for part in main.dropFirst() where part.isEmpty || !part.allSatisfy(\.isASCIIAlnum) { return nil }
        if halves.count == 2 {
            let tail = halves[1].split(separator: ".", omittingEmptySubsequences: false)
            for part in tail where part.isEmpty || !part.allSatisfy({ $0.isASCIIAlnum || $0 == "-" }) { return nil }
        }
        let spelled = trimmed.replacingOccurrences(of: "-", with: ".pre.")
        var raw = [Segment]()
        var run = ""
        var runIsDigits = false
        func flush() {
            guard !run.isEmpty else { return }
            raw.append(runIsDigits ? .number(Natural(run) ?? .zero) : .text(run))
            run = ""
        }
        for ch in spelled {
            guard ch.isASCIIAlnum else { flush(); continue }
            let isDigit = ch.isNumber
            if !run.isEmpty && isDigit != runIsDigits { flush() }
            runIsDigits = isDigit
            run.append(ch)
        }
        flush()
        // Drop trailing zeros from the release part and from the pre-release part separately.
        let firstText = raw.firstIndex { if case .text = $0 { return true } else { return false } } ?? raw.count
        func trimZeros(_ part: ArraySlice<Segment>) -> [Segment] {
            var out = Array(part)
            while case .number(let n)? = out.last, n.isZero { out.removeLast() }
            return out
        }
        segments = trimZeros(raw[..<firstText]) + trimZeros(raw[firstText...])
    }

    /// The segments joined by dots, trailing zeros dropped.
    public var description: String {
        segments.map { s -> String in
            switch s {
            case .number(let n): return n.digits;
            case .text(let t): return t
            }
        }.joined(separator: ".")
    }

    /// `Gem::Version` precedence.
    public static func < (a: RubyGemsVersion, b: RubyGemsVersion) -> Bool {
        for i in 0..<max(a.segments.count, b.segments.count) {
            let x = i < a.segments.count ? a.segments[i] : .number(.zero)
            let y = i < b.segments.count ? b.segments[i] : .number(.zero)
            switch (x, y) {
            case let (.number(m), .number(n)) where m != n: return m < n
            case let (.text(s), .text(t)) where s != t: return Array(s.utf8).lexicographicallyPrecedes(Array(t.utf8))
            case (.text, .number): return true
            case (.number, .text): return false
            default: continue
            }
        }
        return false
    }
}

extension Character {
    var isASCIIAlnum: Bool { isASCII && (isLetter || isNumber) }
}

extension StringProtocol {
    /// The text without leading or trailing ASCII spaces, tabs and newlines.
    func trimmingASCIISpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
