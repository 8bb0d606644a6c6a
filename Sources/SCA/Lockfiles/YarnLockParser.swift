/// `yarn.lock` in both of its languages: v1's own syntax and berry's (v2+) YAML, told apart
/// by berry's `__metadata` entry. v1 takes direct dependencies from package.json when given.
public struct YarnLockParser: ManifestAwareLockfileParser {
    /// The format name results carry.
    public static let format = "yarn.lock"
    /// File names this parser reads.
    public static let fileNames = ["yarn.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// The manifest whose requirements are the direct dependencies (v1 only: berry records them).
    public static let manifestName = "package.json"

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String, manifest: [UInt8]?) throws -> LockfileResult {
        let isBerry = TextLines(bytes).lines.contains { $0.bytes.hasPrefix("__metadata:") }
        return isBerry
            ? try YarnBerryParser().parse(bytes, file: file)
            : try YarnV1Parser().parse(bytes, file: file, manifest: manifest)
    }
}
