/// `yarn.lock` in both of its languages: v1's own syntax and berry's (v2+) YAML, told apart
/// by berry's `__metadata` entry.
public struct YarnLockParser: LockfileParser {
    public static let format = "yarn.lock"
    public static let fileNames = ["yarn.lock"]

    public init() {}

    public func parse(_ bytes: [UInt8], file: String) throws -> LockfileResult {
        let isBerry = TextLines(bytes).lines.contains { $0.bytes.hasPrefix("__metadata:") }
        return isBerry ? try YarnBerryParser().parse(bytes, file: file) : try YarnV1Parser().parse(bytes, file: file)
    }
}
