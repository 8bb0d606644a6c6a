import Testing

@testable import DAST

/// Field paths of a JSON body and injection into one field at a time.
@Suite struct JSONBodyTests {
    private static let text = #"{"user":{"name":"a","tags":["x",{"k":1}]},"ok":true,"none":null,"empty":{},"list":[]}"#

    @Test func fieldPathsListScalarsInOrder() throws {
        let body = try JSONBody(json: Self.text)
        #expect(body.fieldPaths == ["user.name", "user.tags[0]", "user.tags[1].k", "ok", "none"])
        #expect(body.text == Self.text)
        #expect(try JSONBody(json: "42").fieldPaths.isEmpty)
    }

    @Test(
        "replacing one field",
        arguments: [
            ("user.name", #"{"user":{"name":"'--","tags":["x",{"k":1}]},"ok":true,"none":null,"empty":{},"list":[]}"#),
            ("user.tags[1].k", #"{"user":{"name":"a","tags":["x",{"k":"'--"}]},"ok":true,"none":null,"empty":{},"list":[]}"#),
            ("ok", #"{"user":{"name":"a","tags":["x",{"k":1}]},"ok":"'--","none":null,"empty":{},"list":[]}"#),
            ("user", nil), ("missing", nil), ("user.tags[2]", nil), ("", nil),
        ] as [(String, String?)])
    func replaces(path: String, expected: String?) throws {
        #expect(try JSONBody(json: Self.text).replacing(path, with: "'--")?.text == expected)
    }

    @Test func malformedJSONThrowsWithTheLine() {
        #expect(throws: (any Error).self) { try JSONBody(json: "{\n\"a\": }", file: "req") }
    }
}
