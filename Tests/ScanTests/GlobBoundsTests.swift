import Support
import Testing

@testable import Scan

/// Issue 26: a repository's `.sentinel.yml` chooses how many globs every file is checked
/// against. A config gives at most `ScanConfig.maxPatterns`: past it, an error naming the file
/// and the bound.
@Suite struct GlobBoundsTests {
    @Test(arguments: ["exclude", "include"])
    func aConfigListingMorePatternsThanTheBoundIsAnError(key: String) {
        let count = ScanConfig.maxPatterns + 1
        let text = "\(key): [" + (0..<count).map { "p\($0)/" }.joined(separator: ", ") + "]\n"
        #expect(
            throws: SentinelError(
                .invalidInput,
                "/repo/.sentinel.yml:1: \(key): \(count) patterns, more than the \(ScanConfig.maxPatterns) a config may give")
        ) {
            try ScanConfig.parse(text, source: "/repo/.sentinel.yml", baseDirectory: "/repo")
        }
    }

    @Test func aConfigAtTheBoundIsRead() throws {
        let text = "exclude: [" + (0..<ScanConfig.maxPatterns).map { "p\($0)/" }.joined(separator: ", ") + "]\n"
        let config = try ScanConfig.parse(text, source: "c.yml", baseDirectory: "/")
        #expect(config.exclude.count == ScanConfig.maxPatterns)
    }
}
