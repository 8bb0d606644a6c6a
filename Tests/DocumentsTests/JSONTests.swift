import Support
import Testing

@testable import Documents

/// The byte-level JSON reader: positions of keys and values, escapes, numbers, errors.
@Suite struct JSONTests {
    private func parse(_ text: String) throws -> DocumentNode {
        try JSON.parse(Array(text.utf8), file: "f.json")
    }

    private func message(_ text: String) -> String? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return (error as? SentinelError)?.message ?? "\(error)"
        }
    }

    @Test func linesAndColumnsOfKeysAndValues() throws {
        let root = try parse("{\n  \"a\": 1,\n    \"b\": [true,\n  null]\n}")
        #expect((root.line, root.column) == (1, 1))
        #expect(root.members.map { [$0.line, $0.column] } == [[2, 3], [3, 5]])
        #expect(root["a"].map { [$0.line, $0.column] } == [2, 8])
        let b = try #require(root["b"])
        #expect([b.line, b.column] == [3, 10])
        #expect(b.elements.map { [$0.line, $0.column] } == [[3, 11], [4, 3]])
    }

    @Test("JSONC: comments and one trailing comma before a closing bracket; strict JSON refuses both")
    func jsoncCommentsAndTrailingCommas() throws {
        let text = "{\n  // a note\n  \"a\": [1, 2,],\n  /* b\n  */ \"b\": {\"c\": \"//x\",},\n}"
        let root = try JSON.parse(Array(text.utf8), file: "f.json", dialect: .jsonc)
        #expect(root["a"]?.elements.count == 2)
        #expect(root["b"]?["c"]?.string == "//x")
        #expect(root.members.map(\.line) == [3, 5])
        #expect(message(text) != nil)
        #expect(message("[1,]") != nil)
        for bad in ["[1,,]", "{\"a\": 1,,}", "[,]"] {
            #expect(throws: (any Error).self) { try JSON.parse(Array(bad.utf8), file: "f.json", dialect: .jsonc) }
        }
    }

    @Test func crlfAndBOM() throws {
        let root = try parse("\u{FEFF}{\r\n  \"a\": \"x\",\r\n  \"b\": {}\r\n}")
        #expect(root.members.map(\.line) == [2, 3])
        #expect(root.members.map(\.column) == [3, 3])
    }

    @Test func stringEscapes() throws {
        let root = try parse(#"{"a": "x\u00e9\ud83d\ude00\n\t\"\\\/\b\f\r"}"#)
        #expect(root["a"]?.string == "xé😀\n\t\"\\/\u{08}\u{0C}\r")
    }

    @Test(arguments: [
        ("0", DocumentNode.Value.integer(0)),
        ("-12", .integer(-12)),
        ("-2.5e3", .double(-2500)),
        ("1.5", .double(1.5)),
        ("1E2", .double(100)),
        ("12345678901234567890", .double(1.2345678901234567890e19)),
    ])
    func numbers(text: String, expected: DocumentNode.Value) throws {
        #expect(try parse(text).value == expected)
    }

    @Test func orderAndScalarText() throws {
        let root = try parse(#"{"z": 3, "a": "3", "m": true, "n": null}"#)
        #expect(root.members.map(\.key) == ["z", "a", "m", "n"])
        #expect(root.members.map(\.value.scalarText) == ["3", "3", "true", nil])
        #expect(root.member("a")?.value.string == "3")
        #expect(root["missing"] == nil)
    }

    @Test(arguments: [
        ("", "f.json:1: empty JSON document"),
        ("{\"a\": 1} x", "f.json:1: unexpected text after the JSON document"),
        ("{\n\"a\" 1}", "f.json:2: expected ':' after key \"a\""),
        ("[1,\n\n2", "f.json:3: unexpected end of JSON in array"),
        ("[01]", "f.json:1: invalid number '01' in JSON"),
        ("[1-2]", "f.json:1: invalid number '1-2' in JSON"),
        ("[1.]", "f.json:1: invalid number '1.' in JSON"),
        ("\"a\nb\"", "f.json:1: control character in JSON string"),
        ("\"\\x\"", "f.json:1: invalid escape in JSON string"),
        ("[tru]", "f.json:1: invalid literal in JSON"),
        ("{1: 2}", "f.json:1: expected a string key in object"),
        ("\"abc", "f.json:1: unterminated JSON string"),
    ])
    func errorsNameFileAndLine(text: String, expected: String) {
        #expect(message(text) == expected)
    }

    @Test func depthIsBounded() {
        #expect(message(String(repeating: "[", count: 10_000)) == "f.json:1: JSON nested too deeply")
    }

    /// Python's `json` and Node's `JSON.parse` (pipenv, npm): a repeated key holds its last
    /// value at its first place; a scanner keeping the first value misses what gets installed.
    @Test func repeatedKeysKeepTheLastValueAtTheFirstPlace() throws {
        let node = try parse("{\"a\": 1, \"b\": 2,\n \"a\": {\"c\": 3}}")
        #expect(node.members.map(\.key) == ["a", "b"])
        #expect(node["a"]?["c"]?.scalarText == "3")
        #expect(node.member("a")?.line == 2)
        let wide = try parse("{" + (0..<20).map { "\"k\($0 % 10)\": \($0)" }.joined(separator: ", ") + "}")
        #expect(wide.members.map(\.key) == (0..<10).map { "k\($0)" })
        #expect(wide["k3"]?.scalarText == "13")
    }
}
