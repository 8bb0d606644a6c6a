import Testing

@testable import DAST
@testable import Web

/// `application/x-www-form-urlencoded` and percent-encoding.
@Suite struct FormEncodingTests {
    @Test(
        "encoding then decoding returns the pairs",
        arguments: [
            [("a", "1")], [("q", "a b&c=d")], [("ü", "€ 100%")], [("", ""), ("x", "")], [("k", "+/?#[]@!$'()*,;")],
            [("line", "a\r\nb\u{0}c")],
        ] as [[(String, String)]])
    func roundTrips(pairs: [(String, String)]) {
        let decoded = FormEncoding.decode(FormEncoding.encode(pairs))
        #expect(decoded.map(\.name) == pairs.map(\.0))
        #expect(decoded.map(\.value) == pairs.map(\.1))
    }

    @Test(
        "encoding escapes all but unreserved bytes",
        arguments: [
            ([("a b", "c d")], "a+b=c+d"), ([("x", "A-z0.9_~")], "x=A-z0.9_~"), ([("x", "&=+%")], "x=%26%3D%2B%25"),
            ([("x", "é")], "x=%C3%A9"), ([("a", "1"), ("b", "2")], "a=1&b=2"),
        ] as [([(String, String)], String)])
    func encodes(pairs: [(String, String)], expected: String) {
        #expect(FormEncoding.encode(pairs) == expected)
    }

    @Test(
        "decoding is lenient",
        arguments: [
            ("a=1&&b=2&", ["a=1", "b=2"]), ("a==b", ["a==b"]), ("%41%4a=%e2%82%ac", ["AJ=€"]), ("x=%G1%", ["x=%G1%"]),
            ("k", ["k="]), ("+=+", [" = "]), ("x=%FF", ["x=\u{FFFD}"]),
        ])
    func decodes(text: String, expected: [String]) {
        #expect(FormEncoding.decode(text).map { "\($0.name)=\($0.value)" } == expected)
    }

    @Test func percentEncodeAllowsExtraBytes() {
        #expect(FormEncoding.percentEncode("a b/c?d") == "a%20b%2Fc%3Fd")
        #expect(FormEncoding.percentEncode("a b/c?d", allowing: "/?") == "a%20b/c?d")
        #expect(FormEncoding.percentEncode("ü", allowing: "ü") == "%C3%BC")
    }
}
