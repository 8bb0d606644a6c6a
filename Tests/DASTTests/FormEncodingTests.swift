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
            ([("a b", "c d")], "a%20b=c%20d"), ([("x", "A-z0.9_~")], "x=A-z0.9_~"), ([("x", "&=+%")], "x=%26%3D%2B%25"),
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

    @Test("an unchanged value goes back as the page gave it: a plus sign, an escape of a byte that is not UTF-8")
    func rawValuesRoundTrip() {
        let read = FormEncoding.decodeKeepingRaw("id=2+1&blob=%80%04%95K&q=a%20b&flag")
        #expect(read.map(\.value) == ["2 1", "\u{FFFD}\u{4}\u{FFFD}K", "a b", ""])
        #expect(FormEncoding.encode(read.map { ($0.name, $0.value, Optional($0.raw)) }) == "id=2+1&blob=%80%04%95K&q=a%20b&flag=")
        // A value a check changed is encoded afresh (no raw): a space is %20, a plus sign %2B.
        #expect(FormEncoding.encode([(name: "id", value: "2 AND 1+1=2", raw: nil)]) == "id=2%20AND%201%2B1%3D2")
        let endpoint = Endpoint(method: "GET", url: WebURL("http://h/p?id=2+1&blob=%80%04")!, discovery: .link)
        #expect(endpoint.request.url.description == "http://h/p?id=2+1&blob=%80%04")
    }

    @Test func percentEncodeAllowsExtraBytes() {
        #expect(FormEncoding.percentEncode("a b/c?d") == "a%20b%2Fc%3Fd")
        #expect(FormEncoding.percentEncode("a b/c?d", allowing: "/?") == "a%20b/c?d")
        #expect(FormEncoding.percentEncode("ü", allowing: "ü") == "%C3%BC")
    }
}
