/// `yarn.lock` in both of its languages: v1's own syntax and berry's (v2+) YAML, told apart
/// by berry's `__metadata` entry.
public struct YarnLockParser: LockfileParser {
    /// The format name results carry.
    public static let format = "yarn.lock"
    /// File names this parser reads.
    public static let fileNames = ["yarn.lock"]

    /// A parser; it needs no configuration.
    public init() {}

    /// Parses one file; throws `SentinelError(.invalidInput, "FILE:LINE: ...")` when it is malformed.
    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let isBerry = TextLines(bytes).lines.contains { $0.bytes.hasPrefix("__metadata:") }
        return isBerry ? try YarnBerryParser().parse(bytes, file: file) : try YarnV1Parser().parse(bytes, file: file)
    }
}
