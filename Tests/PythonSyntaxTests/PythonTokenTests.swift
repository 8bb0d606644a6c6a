import PythonSyntax
import Testing

@Suite("PythonParser.tokenize")
struct PythonTokenTests {
    @Test("tokens carry their exact byte offsets; comments are not tokens")
    func offsets() throws {
        let source = "if  a<=b :  # é note\n    x = f'{a}' \\\n      + 1\n"
        let tokens = try PythonParser.tokenize(source: source, fileName: "t.py")
        let bytes = Array(source.utf8)
        for token in tokens where !token.text.isEmpty {
            let spelled = String(decoding: bytes[token.range.start.offset..<token.range.end.offset], as: UTF8.self)
            #expect(spelled == token.text)
        }
        let spellings: [String] = tokens.map(\.text).filter { !$0.isEmpty }
        #expect(spellings == ["if", "a", "<=", "b", ":", "x", "=", "f'{a}'", "+", "1"])
        let layout: [PythonToken.Kind] = [.newline, .indent, .newline, .dedent]
        #expect(tokens.map(\.kind).filter { layout.contains($0) } == layout)
        #expect(tokens.last?.kind == .end)
        #expect(tokens.first { $0.text == "+" }?.range.start.line == 3)
    }

    @Test("a source that does not tokenise throws")
    func rejects() {
        #expect(throws: PythonSyntaxError.self) { try PythonParser.tokenize(source: "x = 'open\n", fileName: "t.py") }
    }
}
