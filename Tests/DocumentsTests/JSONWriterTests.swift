import Testing

@testable import Documents

/// The JSON writer: both styles, key order, escapes, and a round trip through the reader.
@Suite struct JSONWriterTests {
    private func node(_ value: DocumentNode.Value) -> DocumentNode { DocumentNode(value, line: 0, column: 0) }

    private var sample: DocumentNode {
        node(
            .object([
                DocumentMember(key: "z", line: 0, column: 0, value: node(.array([node(.integer(1)), node(.double(2.5))]))),
                DocumentMember(key: "a", line: 0, column: 0, value: node(.string("q\"\\\n\u{01}\u{7f}é"))),
                DocumentMember(key: "e", line: 0, column: 0, value: node(.object([]))),
                DocumentMember(key: "n", line: 0, column: 0, value: node(.array([node(.null), node(.bool(false))]))),
                DocumentMember(key: "x", line: 0, column: 0, value: node(.double(.nan))),
            ]))
    }

    @Test func compactSortsKeys() {
        #expect(
            JSONWriter.string(sample)
                == #"{"a":"q\"\\\n\u0001\u007fé","e":{},"n":[null,false],"x":null,"z":[1,2.5]}"#)
    }

    @Test func compactKeepsOrderWhenAsked() {
        #expect(JSONWriter.string(sample, sortKeys: false).hasPrefix(#"{"z":[1,2.5],"a":"#))
    }

    @Test func prettyUsesTwoSpaces() {
        #expect(
            JSONWriter.string(sample, style: .pretty) == """
                {
                  "a": "q\\"\\\\\\n\\u0001\\u007fé",
                  "e": {},
                  "n": [
                    null,
                    false
                  ],
                  "x": null,
                  "z": [
                    1,
                    2.5
                  ]
                }
                """)
    }

    @Test func roundTrip() throws {
        let text = #"{"a":[1,-2,3.25,"x\ty"],"b":{"c":true,"d":null}}"#
        let parsed = try JSON.parse(Array(text.utf8), file: "f.json")
        #expect(JSONWriter.string(parsed) == text)
    }
}
