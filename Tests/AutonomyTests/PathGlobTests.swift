import Autonomy
import Foundation
import Support
import Testing

@Suite struct PathGlobTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let pattern: String
        let path: String
        let matches: Bool
        init(_ pattern: String, _ path: String, _ matches: Bool) {
            self.pattern = pattern
            self.path = path
            self.matches = matches
        }
        var testDescription: String { "\(pattern) \(matches ? "~" : "!~") \(path)" }
    }

    @Test(arguments: [
        // `**` is any number of segments, none included.
        Case("**", "a", true), Case("**", "a/b/c", true),
        Case("src/**", "src/a/b.py", true), Case("src/**", "srcx/a.py", false),
        Case("src/**/test_*.py", "src/test_a.py", true), Case("src/**/test_*.py", "src/x/y/test_a.py", true),
        Case("src/**/test_*.py", "src/x/y/a_test.py", false), Case("**/**/x", "x", true),
        Case("a/**/b/**/c", "a/b/c", true), Case("a/**/b/**/c", "a/1/2/b/3/c", true),
        Case("a/**/b/**/c", "a/1/c/b", false),
        // `*` and `?` stay inside one segment.
        Case("src/*.py", "src/a.py", true), Case("src/*.py", "src/sub/a.py", false),
        Case("x/a?c", "x/abc", true), Case("x/a?c", "x/a/c", false), Case("file?.txt", "file10.txt", false),
        Case("x/a*", "x/a", true), Case("x/*b*c", "x/abbbc", true), Case("x/*b*c", "x/abbbd", false),
        // Without `/` a pattern names a file at any depth; with one it is anchored at the root.
        Case("*.pem", "server.pem", true), Case("*.pem", "certs/deep/server.pem", true),
        Case("*.pem", "certs/server.pem.bak", false), Case("*.pem", "x.pem/readme", false),
        Case("requirements*.txt", "requirements.txt", true), Case("requirements*.txt", "sub/requirements-dev.txt", true),
        Case("src/a.py", "lib/src/a.py", false), Case(".github/**", "vendor/.github/workflows/ci.yml", false),
        Case("**/id_rsa*", "id_rsa", true), Case("**/id_rsa*", "home/.ssh/id_rsa.pub", true),
        // Classes.
        Case("[abc].py", "b.py", true), Case("[abc].py", "d.py", false), Case("[a-c]x", "bx", true),
        Case("[a-c]x", "dx", false), Case("[!a]x", "ax", false), Case("[!a]x", "bx", true), Case("[^a]x", "bx", true),
        Case("[]]x", "]x", true), Case("[!]]x", "]x", false), Case("v[0-9][0-9]", "v42", true),
        // Escapes, `./` and `/` prefixes, a trailing `/`.
        Case("\\*.py", "*.py", true), Case("\\*.py", "a.py", false), Case("./src/a.py", "src/a.py", true),
        Case("/src/a.py", "src/a.py", true), Case("src/a.py", "./src/a.py", true), Case("src/a.py", "/src//a.py", true),
        Case("docs/", "docs/a/b.md", true), Case("docs/", "x/docs/a.md", false),
        // `**` inside a segment is a plain `*`; matching is case-sensitive and per character.
        Case("a**b", "axxb", true), Case("a**b", "ax/xb", false), Case("*.PEM", "a.pem", false),
        Case("caf?.txt", "café.txt", true),
    ])
    func matches(_ example: Case) throws {
        #expect(try PathGlob(example.pattern).matches(example.path) == example.matches)
    }

    @Test(arguments: [
        ("", "empty pattern"), ("/", "empty pattern"), ("./", "empty pattern"), ("src/[ab", "unclosed '['"),
        ("[", "unclosed '['"), ("a/../b", "'..' segments"), ("../x", "'..' segments"), ("a/./b", "'.' segments"),
        ("a//b", "empty path segment"), ("x\\", "trailing '\\'"), ("[z-a]", "reversed"),
    ])
    func badPatternsAreRefusedNamingThePattern(pattern: String, problem: String) {
        do {
            _ = try PathGlob(pattern)
            Issue.record("accepted '\(pattern)'")
        } catch let error as SentinelError {
            #expect(error.code == .invalidInput)
            #expect(error.message.hasPrefix("glob '\(pattern)': "))
            #expect(error.message.contains(problem), "\(error.message)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func anEmptyPathMatchesNothing() throws {
        #expect(try !PathGlob("**").matches(""))
        #expect(try !PathGlob("*").matches("/"))
    }

    /// Backtracking over many `**` would take exponential time on a deep path; the matcher
    /// is linear in pattern × path, so this returns at once.
    @Test func manyDoubleStarsOnADeepPathStayCheap() throws {
        let glob = try PathGlob(Array(repeating: "**/a", count: 40).joined(separator: "/") + "/b")
        let deep = Array(repeating: "a", count: 300).joined(separator: "/")
        #expect(!glob.matches(deep))
        #expect(glob.matches(deep + "/b"))
        let stars = try PathGlob("x/" + String(repeating: "*a", count: 50) + "b")
        #expect(!stars.matches("x/" + String(repeating: "a", count: 200)))
    }

    @Test func encodesAsItsPatternAndDecodingValidates() throws {
        let globs = [try PathGlob("src/**"), try PathGlob("*.pem")]
        let data = try JSONEncoder().encode(globs)
        #expect(String(decoding: data, as: UTF8.self) == #"["src\/**","*.pem"]"#)
        #expect(try JSONDecoder().decode([PathGlob].self, from: data) == globs)
        #expect(throws: SentinelError.self) { try JSONDecoder().decode([PathGlob].self, from: Data(#"["a/../b"]"#.utf8)) }
    }
}
