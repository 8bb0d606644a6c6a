import SourcePositions
import Testing

@testable import Findings

@Suite struct FingerprintTests {
    /// A toy scanner: every line containing `eval(` is a finding, scoped to the last `def`.
    static func scan(_ source: String, file: String = "app/util.py") -> [Finding] {
        var scope: String? = nil
        var findings: [Finding] = []
        for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("def ") {
                scope = String(trimmed.dropFirst(4).prefix { $0 != "(" })
            }
            if line.contains("eval(") {
                findings.append(
                    Finding(
                        ruleId: "python.eval", severity: .high, message: "eval of untrusted data",
                        location: Location(file: file, startLine: index + 1, startColumn: 5),
                        snippet: String(line), enclosingScope: scope))
            }
        }
        return Fingerprint.assignOccurrences(findings)
    }

    static let original = """
        import os

        def run(data):
            value = eval(data)
            return value
        """

    @Test func survivesLinesInsertedAbove() {
        let moved = "import sys\nimport json\n# a comment\n\n" + Self.original
        let before = Self.scan(Self.original)
        let after = Self.scan(moved)
        #expect(before.count == 1 && after.count == 1)
        #expect(before.first?.location.startLine != after.first?.location.startLine)
        #expect(before.first?.fingerprint == after.first?.fingerprint)
    }

    @Test func survivesReindentAndCommentChanges() {
        let edited = Self.original.replacingOccurrences(of: "    value = eval(data)", with: "    value  =  eval(data)   # trusted? no")
        #expect(Self.scan(edited).first?.fingerprint == Self.scan(Self.original).first?.fingerprint)
    }

    @Test func changesWhenTheCodeChanges() {
        let edited = Self.original.replacingOccurrences(of: "eval(data)", with: "eval(data.strip())")
        #expect(Self.scan(edited).first?.fingerprint != Self.scan(Self.original).first?.fingerprint)
    }

    @Test func changesWithRuleScopeOrFile() {
        let base = Fingerprint.compute(ruleId: "r", file: "a.py", normalizedCode: "eval(x)", enclosingScope: "f")
        #expect(base != Fingerprint.compute(ruleId: "r2", file: "a.py", normalizedCode: "eval(x)", enclosingScope: "f"))
        #expect(base != Fingerprint.compute(ruleId: "r", file: "a.py", normalizedCode: "eval(x)", enclosingScope: "g"))
        #expect(base != Fingerprint.compute(ruleId: "r", file: "b.py", normalizedCode: "eval(x)", enclosingScope: "f"))
        #expect(base == Fingerprint.compute(ruleId: "r", file: "a.py", normalizedCode: "eval(x)", enclosingScope: "f"))
        // Field boundaries are part of the hash.
        #expect(
            Fingerprint.compute(ruleId: "ab", file: "c", normalizedCode: "", enclosingScope: nil)
                != Fingerprint.compute(ruleId: "a", file: "bc", normalizedCode: "", enclosingScope: nil))
    }

    @Test func repeatsInOneFileGetDistinctStableFingerprints() {
        let source = Self.original + "\n\ndef run(data):\n    value = eval(data)\n"
        let findings = Self.scan(source)
        #expect(findings.count == 2)
        #expect(Set(findings.map(\.fingerprint)).count == 2)
        // The first occurrence keeps the fingerprint it had when it was alone.
        #expect(findings.first?.fingerprint == Self.scan(Self.original).first?.fingerprint)
        // Both survive inserting lines above.
        #expect(Self.scan("import sys\n" + source).map(\.fingerprint) == findings.map(\.fingerprint))
    }

    @Test(arguments: [
        ("  x  =   1  ", Fingerprint.CommentStyle.hash, "x = 1"),
        ("x = 1  # note", .hash, "x = 1"),
        ("s = '# not a comment'  # real", .hash, "s = '# not a comment'"),
        ("s = \"a  b\"", .hash, "s = \"a  b\""),
        ("foo(a,\n      b)", .hash, "foo(a, b)"),
        ("x = 1 // note", .slashes, "x = 1"),
        ("u = \"http://x\" // c", .slashes, "u = \"http://x\""),
        ("a = b // c", .none, "a = b // c"),
        ("\t\n  \n", .hash, ""),
        ("s = 'it\\'s' # c", .hash, "s = 'it\\'s'"),
    ])
    func normalizes(input: String, style: Fingerprint.CommentStyle, expected: String) {
        #expect(Fingerprint.normalize(input, style: style) == expected)
    }

    @Test(arguments: [
        ("a/b.py", Fingerprint.CommentStyle.hash), ("x.js", .slashes), ("Dockerfile", .hash),
        ("README", .none), ("c/main.C", .slashes), ("conf.yaml", .hash),
    ])
    func commentStyleFromPath(path: String, style: Fingerprint.CommentStyle) {
        #expect(Fingerprint.CommentStyle(forPath: path) == style)
    }

    @Test func withoutSnippetTheMessageDistinguishes() {
        let a = Finding(
            ruleId: "osv.X", severity: .high, message: "requests 2.19.0 is vulnerable", location: Location(file: "requirements.txt"))
        let b = Finding(
            ruleId: "osv.X", severity: .high, message: "urllib3 1.0 is vulnerable", location: Location(file: "requirements.txt"))
        let a2 = Finding(
            ruleId: "osv.X", severity: .high, message: "requests 2.19.0  is vulnerable",
            location: Location(file: "requirements.txt", startLine: 9))
        #expect(a.fingerprint != b.fingerprint)
        #expect(a.fingerprint == a2.fingerprint, "whitespace and line do not matter")
    }

    @Test(arguments: [("abc", 0, 1), ("abc", 2, 3), ("é = x", 2, 2), ("é = x", 3, 3), ("日本 = 1", 7, 4), ("ab", 10, 3)])
    func codePointColumns(line: String, offset: Int, column: Int) {
        #expect(SourceColumn.column(utf8Offset: offset, in: Array(line.utf8)) == column)
    }

    @Test func webFindingsIgnoreQueryValues() {
        let a = Finding(
            ruleId: "dast.xss", severity: .high, message: "m",
            location: Location(url: "http://h/s?q=1", method: "GET", parameter: "q"))
        let b = Finding(
            ruleId: "dast.xss", severity: .high, message: "m",
            location: Location(url: "http://h/s?q=2", method: "GET", parameter: "q"))
        let c = Finding(
            ruleId: "dast.xss", severity: .high, message: "m",
            location: Location(url: "http://h/s?q=2", method: "GET", parameter: "r"))
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint != c.fingerprint)
    }
}
