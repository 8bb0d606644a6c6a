import Support
import Testing

@testable import Findings

/// `Fix.apply(to:)`: regions in 1-based lines and code-point columns, several replacements at once.
@Suite("Fix.apply")
struct FixApplyTests {
    typealias R = Fix.Replacement

    @Test("replacements in any order, an insertion before a replacement at the same point, deletions")
    func several() throws {
        let source = "import os\nx = f(a, verify=False)\n"
        let fix = Fix(
            description: "d",
            replacements: [
                R(startLine: 2, startColumn: 8, endLine: 2, endColumn: 22, text: ""),
                R(startLine: 2, startColumn: 1, endLine: 2, endColumn: 2, text: "y"),
                R(startLine: 2, startColumn: 1, endLine: 2, endColumn: 1, text: "import sys\n"),
            ])
        #expect(try fix.apply(to: source) == "import os\nimport sys\ny = f(a)\n")
    }

    @Test("columns count code points; a region may run to the end of its line or over a line break")
    func codePoints() throws {
        let source = "s = 'é🙂'; eval(s)\nnext\n"
        let one = Fix(description: "d", replacements: [R(startLine: 1, startColumn: 11, endLine: 1, endColumn: 18, text: "print(s)")])
        #expect(try one.apply(to: source) == "s = 'é🙂'; print(s)\nnext\n")
        let join = Fix(description: "d", replacements: [R(startLine: 1, startColumn: 18, endLine: 2, endColumn: 1, text: " ")])
        #expect(try join.apply(to: source) == "s = 'é🙂'; eval(s) next\n")
    }

    @Test("CRLF and lone CR end lines, and stay as they are", arguments: ["\r\n", "\r"])
    func lineEndings(newline: String) throws {
        let source = ["a = 1", "b = f(x)", "c = 3", ""].joined(separator: newline)
        let fix = Fix(
            description: "d",
            replacements: [
                R(startLine: 2, startColumn: 5, endLine: 2, endColumn: 9, text: "g(x)"),
                R(startLine: 2, startColumn: 1, endLine: 2, endColumn: 1, text: "import g" + newline),
            ])
        #expect(try fix.apply(to: source) == ["a = 1", "import g", "b = g(x)", "c = 3", ""].joined(separator: newline))
    }

    @Test("replacements for another file are left alone; a fix without replacements changes nothing")
    func otherFiles() throws {
        let fix = Fix(
            description: "d", replacements: [R(file: "other.py", startLine: 1, startColumn: 1, endLine: 1, endColumn: 2, text: "z")])
        #expect(try fix.apply(to: "a\n") == "a\n")
        #expect(try Fix(description: "upgrade").apply(to: "a\n") == "a\n")
    }

    @Test(
        "bad regions are errors",
        arguments: [
            R(startLine: 3, startColumn: 1, endLine: 3, endColumn: 1, text: ""),
            R(startLine: 1, startColumn: 5, endLine: 1, endColumn: 5, text: ""),
            R(startLine: 1, startColumn: 3, endLine: 1, endColumn: 2, text: ""),
            R(startLine: 0, startColumn: 1, endLine: 1, endColumn: 1, text: ""),
        ])
    func badRegions(replacement: R) {
        #expect(throws: SentinelError.self) { try Fix(description: "d", replacements: [replacement]).apply(to: "abc\n") }
    }

    @Test("overlapping regions are an error")
    func overlap() {
        let fix = Fix(
            description: "d",
            replacements: [
                R(startLine: 1, startColumn: 1, endLine: 1, endColumn: 3, text: "x"),
                R(startLine: 1, startColumn: 2, endLine: 1, endColumn: 2, text: "y"),
            ])
        #expect(throws: SentinelError.self) { try fix.apply(to: "abc\n") }
    }
}
