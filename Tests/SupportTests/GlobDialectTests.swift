import Support
import Testing

/// One matcher, two dialects: each keeps what its callers document (scan ignores read like
/// `.gitignore`, policy paths are anchored and strict).
@Suite struct GlobDialectTests {
    @Test(arguments: [
        // A bare name: the ignore dialect matches it as any directory on the path too.
        ("*.pem", "keys/a.pem", true, true), ("*.pem", "a.pem/readme", true, false),
        // A trailing `/`: the ignore dialect reads `docs/` as a bare name, policy anchors it.
        ("docs/", "src/docs/a.md", true, false), ("docs/", "docs/a.md", true, true),
        // `\` escapes only in policies.
        ("a\\*", "a*", false, true), ("a\\*", "a\\b", true, false),
        // `?` is one byte in ignore files, one character in policies.
        ("caf?", "café", false, true),
        // Classes, `**` and anchoring agree.
        ("src/[a-c]*.py", "src/b1.py", true, true), ("src/**/x", "src/x", true, true), ("src/*.py", "lib/src/a.py", false, false),
    ])
    func eachDialectKeepsItsMeaning(pattern: String, path: String, ignoreFile: Bool, policy: Bool) throws {
        #expect(Glob(pattern).matches(path) == ignoreFile, "ignore-file \(pattern) vs \(path)")
        #expect(try Glob.policy(pattern).matches(path) == policy, "policy \(pattern) vs \(path)")
    }

    @Test(arguments: [
        ("", "empty pattern"), ("a/[bc", "unclosed '['"), ("[z-a]", "range 'z-a' is reversed"), ("a\\", "trailing '\\' escapes nothing"),
        ("a//b", "empty path segment"), ("a/../b", "'..' segments are not allowed"),
    ])
    func aMalformedPolicyPatternIsRefusedNamingTheProblem(pattern: String, problem: String) {
        #expect(throws: SentinelError(.invalidInput, "glob '\(pattern)': \(problem)")) { try Glob.policy(pattern) }
    }

    @Test func theIgnoreDialectReadsEveryStringAsAPattern() {
        #expect(Glob("a/[bc").matches("a/[bc"))
        #expect(!Glob("[z-a]").matches("m"))
        #expect(Glob("a//b").matches("a/b"))
    }

    @Test func policySegmentsDropEmptyAndDotSegments() throws {
        #expect(Glob.policySegments(of: "./a//./b/..") == ["a", "b", ".."])
        #expect(try Glob.policy("a/b").matches("./a/./b"))
        #expect(!Glob("a/b").matches("./a/./b"))
    }

    @Test func aFileNameIsMatchedAlone() {
        #expect(Glob("*.min.js").matches(name: Array("app.min.js".utf8)))
        #expect(!Glob("*.min.js").matches(name: Array("app.js".utf8)))
        #expect(!Glob("src/*.js").matches(name: Array("a.js".utf8)))
        #expect(Glob.matches(pattern: "requirements*.txt", name: "requirements/dev.txt"))
    }
}
