/// SemVer 2.0 (crates.io, npm): numeric core, pre-release identifiers with numeric-vs-alphanumeric
/// ordering, build metadata ignored for precedence. The lenient mode also accepts what lockfiles
/// and advisories write in practice: a `v` or `=` prefix, missing minor/patch (`1.2` = `1.2.0`) and
/// leading zeros.
public struct SemVerScheme: VersionScheme {
    /// Whether to accept the relaxed spellings above.
    public var lenient: Bool
    /// Makes the scheme; `lenient` also accepts versions SemVer 2.0 rejects.
    public init(lenient: Bool = false) { self.lenient = lenient }
    /// The scheme's name for messages.
    public var name: String { lenient ? "SemVer (lenient)" : "SemVer" }
    /// Parses `text`; nil when it is not a valid version in this scheme.
    public func parse(_ text: String) -> SemVer? { SemVer(text, lenient: lenient) }
    /// The version without build metadata, equal for versions of equal precedence.
    public func equalityKey(_ version: SemVer) -> String { version.precedenceText }
    /// The major number, the release line a fix must share to count as same major.
    public func majorKey(_ version: SemVer) -> String { version.major.digits }
}

/// One parsed SemVer 2.0 version.
public struct SemVer: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// A pre-release identifier: numeric ones sort before alphanumeric ones.
    public enum Identifier: Comparable, Hashable, Sendable {
        case number(Natural)
        case text(String)
    }

    /// The major version number.
    public let major: Natural
    /// The minor version number.
    public let minor: Natural
    /// The patch version number.
    public let patch: Natural
    /// The pre-release identifiers (`rc.1` → text rc, number 1); empty for a release.
    public let prerelease: [Identifier]
    /// Build metadata, kept for display only.
    public let build: String?

    /// Parses `text`; nil when it is not valid (strictly, unless `lenient`).
    public init?(_ text: String, lenient: Bool = false) {
        var body = Substring(text)
        if lenient {
            body = body.drop { $0 == " " }
            if body.first == "=" { body = body.dropFirst() }
            if body.first == "v" || body.first == "V" { body = body.dropFirst() }
            while body.last == " " { body = body.dropLast() }
        }
        var build: String?
        if let plus = body.firstIndex(of: "+") {
            let meta = body[body.index(after: plus)...]
            guard SemVer.validDotted(meta, allowLeadingZeros: true) else { return nil }
            build = String(meta)
            body = body[..<plus]
        }
        var pre: Substring?
        if let dash = body.firstIndex(of: "-") {
            pre = body[body.index(after: dash)...]
            body = body[..<dash]
        }
        let core = body.split(separator: ".", omittingEmptySubsequences: false)
        guard core.count == 3 || (lenient && (1...2).contains(core.count)) else { return nil }
        var numbers = [Natural]()
        for part in core {
            guard let n = Natural(part) else { return nil }
            if !lenient && part.count > 1 && part.first == "0" { return nil }
            numbers.append(n)
        }
        while numbers.count < 3 { numbers.append(.zero) }
        var ids = [Identifier]()
        if let pre {
            guard SemVer.validDotted(pre, allowLeadingZeros: lenient) else { return nil }
            for part in pre.split(separator: ".") {
                ids.append(Natural(part).map { .number($0) } ?? .text(String(part)))
            }
        }
        (major, minor, patch, prerelease, self.build) = (numbers[0], numbers[1], numbers[2], ids, build)
    }

    /// Dot-separated non-empty identifiers of `[0-9A-Za-z-]`.
    private static func validDotted(_ text: Substring, allowLeadingZeros: Bool) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty else { return false }
        for part in parts {
            guard !part.isEmpty else { return false }
            for b in part.utf8 where !(b == 0x2D || (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A)) {
                return false
            }
            if !allowLeadingZeros && part.count > 1 && part.first == "0" && part.allSatisfy(\.isNumber) {
                return false
            }
        }
        return true
    }

    /// The spelling without build metadata: what precedence depends on.
    public var precedenceText: String {
        var out = "\(major).\(minor).\(patch)"
        if !prerelease.isEmpty {
            out +=
                "-"
                + prerelease.map { id -> String in
                    switch id {
                    case .number(let n): return n.digits;
                    case .text(let s): return s
                    }
                }.joined(separator: ".")
        }
        return out
    }

    /// The version as written in SemVer form, build metadata included.
    public var description: String { precedenceText + (build.map { "+" + $0 } ?? "") }

    /// Equal precedence: build metadata is ignored.
    public static func == (a: SemVer, b: SemVer) -> Bool {
        (a.major, a.minor, a.patch) == (b.major, b.minor, b.patch) && a.prerelease == b.prerelease
    }
    /// Hashes the precedence text, consistent with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(precedenceText) }

    /// SemVer 2.0 precedence: numbers, then pre-release identifiers (a pre-release sorts before its release).
    public static func < (a: SemVer, b: SemVer) -> Bool {
        if a.major != b.major { return a.major < b.major }
        if a.minor != b.minor { return a.minor < b.minor }
        if a.patch != b.patch { return a.patch < b.patch }
        // A pre-release sorts before its release; otherwise identifiers compare left to right
        // and a shorter list that is a prefix of a longer one sorts first.
        if a.prerelease.isEmpty || b.prerelease.isEmpty { return !a.prerelease.isEmpty && b.prerelease.isEmpty }
        for (x, y) in zip(a.prerelease, b.prerelease) where x != y { return x < y }
        return a.prerelease.count < b.prerelease.count
    }
}
