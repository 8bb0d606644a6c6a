/// Go module versions: SemVer with a `v` prefix, pseudo-versions (which are SemVer pre-releases
/// and so order correctly as SemVer), and `+incompatible` (build metadata, ignored). Toolchain
/// spellings used for the `stdlib`/`toolchain` entries (`go1.21`, `1.21.3`, `go1.21rc1`) are
/// mapped to OSV's SemVer form (`1.21.0`, `1.21.3`, `1.21.0-rc.1`).
public struct GoVersionScheme: VersionScheme {
    /// Makes the scheme; it has no options.
    public init() {}
    /// The scheme's name for messages.
    public var name: String { "Go" }

    /// Parses `text`; nil when it is not a valid version in this scheme.
    public func parse(_ text: String) -> SemVer? {
        if let v = SemVer(text.hasPrefix("v") ? String(text.dropFirst()) : text) { return v }
        return GoVersionScheme.toolchainVersion(text)
    }
    /// A spelling equal for versions of equal precedence.
    public func equalityKey(_ version: SemVer) -> String { version.precedenceText }
    /// The release line (first component) a fix must share to count as same major.
    public func majorKey(_ version: SemVer) -> String { version.major.digits }

    /// Whether `text` is a pseudo-version (`v0.0.0-20191109021931-daa7c04131f5` and its two
    /// other forms): the last two pre-release parts are a 14-digit timestamp and a commit hash.
    public static func isPseudoVersion(_ text: String) -> Bool {
        guard let v = SemVer(text.hasPrefix("v") ? String(text.dropFirst()) : text),
            let dash = text.firstIndex(of: "-")
        else { return false }
        let tail = text[text.index(after: dash)...].split(separator: "+").first ?? ""
        let pieces = tail.split(separator: "-")
        guard let last = pieces.last, pieces.count >= 2, !v.prerelease.isEmpty else { return false }
        let stamp = pieces[pieces.count - 2].split(separator: ".").last ?? ""
        return stamp.count == 14 && stamp.allSatisfy(\.isASCII) && stamp.allSatisfy(\.isNumber)
            && last.count >= 12 && last.allSatisfy { $0.isHexDigit }
    }

    /// `go1.21`, `1.21`, `1.21.3`, `go1.21rc1`, `1.21beta2` in OSV's SemVer spelling; nil otherwise.
    public static func toolchainVersion(_ text: String) -> SemVer? {
        var body = Substring(text)
        if body.hasPrefix("go") { body = body.dropFirst(2) }
        if body.hasPrefix("v") { body = body.dropFirst() }
        // Split "1.21rc1" into the numeric core and a "rc1" tail.
        let coreEnd = body.firstIndex { !($0.isNumber || $0 == ".") } ?? body.endIndex
        let core = body[..<coreEnd].split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(core.count), core.allSatisfy({ Natural($0) != nil }) else { return nil }
        var numbers = core.map(String.init)
        while numbers.count < 3 { numbers.append("0") }
        var text = numbers.joined(separator: ".")
        let tail = body[coreEnd...]
        if !tail.isEmpty {
            let labelEnd = tail.firstIndex { !$0.isLetter } ?? tail.endIndex
            let label = tail[..<labelEnd], number = tail[labelEnd...]
            guard ["rc", "beta", "alpha"].contains(String(label)), Natural(number) != nil else { return nil }
            text += "-\(label).\(number)"
        }
        return SemVer(text)
    }
}
