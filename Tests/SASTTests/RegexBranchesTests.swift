import Foundation
import Testing
import TestSupport

@testable import SAST

/// An expression searched alternative by alternative (`project-not-regex`): where it is cut, where
/// it is not, and that the answer is the whole expression's.
@Suite("Regex alternatives searched apart")
struct RegexBranchesTests {
    @Test(
        "the top-level alternatives, each with the expression's leading flags",
        arguments: [
            ("(?m)^a|b", ["(?m)^a", "(?m)b"]),
            ("(?i)(?m)x|y|z", ["(?i)(?m)x", "(?i)(?m)y", "(?i)(?m)z"]),
            ("[|]a|b", ["[|]a", "b"]),
            ("[]|]a|b", ["[]|]a", "b"]),
            ("[^]|]a|b", ["[^]|]a", "b"]),
            ("\\|a|b", ["\\|a", "b"]),
            ("(?:a|b)c|d", ["(?:a|b)c", "d"]),
            ("(?i:a)|b", ["(?i:a)", "b"]),
            ("(?P<n>a)|b", ["(?P<n>a)", "b"]),
            ("[a[|]]|b", ["[a[|]]", "b"]),
            ("a|", ["a", ""]),
        ] as [(String, [String])])
    func split(pattern: String, expected: [String]) {
        #expect(RegexBranches.split(pattern) == expected)
    }

    @Test(
        "not cut where an alternative could mean something else alone",
        arguments: [
            "abc", "(a|b)", "(a)|\\1", "(?<n>a)|\\k<n>", "(?x)a | b", "a(?i)b|c", "(?#a|b)c|d", "\\Qa|b\\E|c", "(a|b", "a)|b",
            "[a|b", "a|b\\",
        ])
    func refused(pattern: String) {
        #expect(RegexBranches.split(pattern) == nil)
    }

    @Test("searched apart, an expression is found exactly where it is found whole")
    func sameAnswer() throws {
        var random = SeededRandom(state: 77)
        let alphabet = Array("abcAB-. \n#")
        var split = 0
        var found = 0
        for _ in 0..<60 {
            let count = 2 + Int(random.next() % 3)
            let flags = ["", "(?m)", "(?i)", "(?m)(?i)"][Int(random.next() % 4)]
            let alternatives = (0..<count).map { _ in
                (random.next() % 3 == 0 ? "^" : "") + RegexLiteralsTests.randomExpression(&random)
            }
            let source = flags + alternatives.joined(separator: "|")
            guard let whole = try? NSRegularExpression(pattern: source),
                let compiled = try? CompiledRegex(pattern: source, checked: false)
            else { continue }
            if compiled.searchesAlternatives { split += 1 }
            for _ in 0..<60 {
                let length = Int(random.next() % 14)
                let text = String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
                let expected = whole.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(compiled.occurs(in: text) == expected, "\(source) in \(text.debugDescription)")
                if expected { found += 1 }
            }
        }
        #expect(split > 12)
        #expect(found > 800)
    }

    @Test("each alternative brings its own requirement; the answers are the whole expression's")
    func alternativeLiterals() throws {
        // The whole expression needs one of `login` or `limiter`; its first alternative also
        // needs `from` or `import`, and its second `attempt`.
        let regex = try CompiledRegex(
            pattern: "(?m)^\\s*(?:from|import)\\s+\\w*limiter\\b|^[^#\\n]*\\b\\w*login\\w*attempt\\w*\\s*>", checked: false)
        #expect(regex.searchesAlternatives)
        let parts = try #require(RegexBranches.split(regex.pattern))
        #expect(RegexLiterals(pattern: parts[0]).required.count >= 2)
        #expect(RegexLiterals(pattern: parts[1]).required.count >= 2)
        let common = "import os\n# a login form\n" + String(repeating: "x = compute(a, b) + rate_limiter_name\n", count: 50)
        #expect(!regex.occurs(in: common))
        #expect(regex.occurs(in: "import os\nfrom flask_limiter import Limiter\n"))
        #expect(regex.occurs(in: "if login_attempts > 5:\n"))
        #expect(!regex.occurs(in: "# if login_attempts > 5:\n"))
    }
}
