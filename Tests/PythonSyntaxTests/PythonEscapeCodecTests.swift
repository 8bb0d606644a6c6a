import Testing

@testable import PythonSyntax

/// The `unicode_escape`, `raw_unicode_escape` and `utf-7` decoders against CPython 3.11: each
/// expected value is `bytes.decode(codec).encode("utf-8")` of the input.
@Suite("Escape codecs decode as CPython's")
struct PythonEscapeCodecTests {
    @Test func unicodeEscapeMatchesCPython() throws {
        let input = Array(#"a\tb\\c\'d\"e\101\777\8\x41\u00e9\U0001F600\z"#.utf8) + [0xE9, 0x5C, 0x0A, 0x66]
        let expected: [UInt8] = [
            97, 9, 98, 92, 99, 39, 100, 34, 101, 65, 199, 191, 92, 56, 65, 195, 169, 240, 159, 152, 128, 92, 122,
            195, 169, 102,
        ]
        #expect(try PyEscapeCodecs.unicodeEscape(input) == expected)
    }

    @Test func rawUnicodeEscapeMatchesCPython() throws {
        let input = Array(#"\\u0041\u0041\\\u0041\x41\N{X}"#.utf8) + [0xE9] + Array(#"\U0001F600\\"#.utf8)
        let expected: [UInt8] = [
            92, 92, 117, 48, 48, 52, 49, 65, 92, 92, 65, 92, 120, 52, 49, 92, 78, 123, 88, 125, 195, 169, 240, 159,
            152, 128, 92, 92,
        ]
        #expect(try PyEscapeCodecs.rawUnicodeEscape(input) == expected)
    }

    @Test func utf7MatchesCPython() throws {
        let input = Array(#"a+AGEAYg-c+-+AGE.x+2D3cAA-~\"#.utf8)
        #expect(try PyEscapeCodecs.utf7(input) == [97, 97, 98, 99, 43, 97, 46, 120, 240, 159, 144, 128, 126, 92])
    }

    /// Inputs CPython's codecs raise on (its messages).
    static let malformed: [(codec: String, bytes: String, message: String)] = [
        ("unicode_escape", #"a\"#, "\\ at end of string"),
        ("unicode_escape", #"\x4"#, "truncated \\xXX escape"),
        ("unicode_escape", #"\u00"#, "truncated \\uXXXX escape"),
        ("unicode_escape", #"\U00110000"#, "illegal Unicode character"),
        ("unicode_escape", #"\ud800"#, "surrogates not allowed"),
        ("raw_unicode_escape", #"\u00"#, "truncated \\uXXXX escape"),
        ("utf_7", "+AG", "unterminated shift sequence"),
        ("utf_7", "+AGEA-", "partial character in shift sequence"),
        ("utf_7", "+AGF-", "non-zero padding bits in shift sequence"),
        ("utf_7", "+2D0-", "surrogates not allowed"),
    ]

    @Test("malformed input is refused, as by CPython", arguments: malformed.indices)
    func malformedIsRefused(_ index: Int) throws {
        let c = Self.malformed[index]
        let decoder = try #require(PyEscapeCodecs.decoder(named: c.codec))
        #expect(throws: PyEscapeCodecs.Failure.malformed(c.message)) { try decoder(Array(c.bytes.utf8)) }
    }

    @Test func utf7RefusesNonASCII() {
        #expect(throws: PyEscapeCodecs.Failure.malformed("unexpected special character")) {
            try PyEscapeCodecs.utf7([0x61, 0xE9])
        }
    }

    @Test func theDeclaredTextIsWhatCPythonRuns() throws {
        let source = try PythonSource(
            bytes: Array("# coding: utf-7\nimport os\n# +AAo-os.system(input())\n".utf8), fileName: "s.py")
        #expect(source.text == "# coding: utf-7\nimport os\n# \nos.system(input())\n")
        #expect(source.rewritesASCII && source.declaredEncoding == "utf-7")
        let plain = try PythonSource(bytes: Array("# -*- coding: latin-1 -*-\nx = '".utf8) + [0xE9, 0x27], fileName: "p.py")
        #expect(plain.text.hasSuffix("x = 'é'") && !plain.rewritesASCII)
        #expect {
            try PythonSource(bytes: Array("# coding: hz\nx = 1\n".utf8), fileName: "h.py")
        } throws: { ($0 as? PythonSyntaxError)?.code == .unsupportedEncoding }
    }
}
