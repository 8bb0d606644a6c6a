import Testing

@testable import DAST
@testable import Web

/// RFC 3986 parsing and §5.2 resolution, and the edge cases a hostile page can write.
@Suite struct WebURLTests {
    private static let base = WebURL("http://a/b/c/d;p?q")

    /// RFC 3986 §5.4.1, with the fragment dropped (resolving never keeps it); `g:h` is another
    /// scheme, hence nil.
    @Test(
        "RFC 3986 §5.4.1 normal examples",
        arguments: [
            ("g:h", nil), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
            ("/g", "http://a/g"), ("//g", "http://g/"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
            ("#s", "http://a/b/c/d;p?q"), ("g#s", "http://a/b/c/g"), ("g?y#s", "http://a/b/c/g?y"),
            (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y"),
            ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
            ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
            ("../../g", "http://a/g"),
        ] as [(String, String?)])
    func normalResolution(reference: String, expected: String?) throws {
        let base = try #require(Self.base)
        #expect(base.resolving(reference)?.string == expected)
        #expect(base.resolving(reference)?.fragment == nil)
    }

    /// RFC 3986 §5.4.2; `http:g` follows the backward-compatible reading browsers use.
    @Test(
        "RFC 3986 §5.4.2 abnormal examples",
        arguments: [
            ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
            ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
            ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
            ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
            ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
            ("g#s/./x", "http://a/b/c/g"), ("g#s/../x", "http://a/b/c/g"), ("http:g", "http://a/b/c/g"),
        ])
    func abnormalResolution(reference: String, expected: String) throws {
        #expect(try #require(Self.base).resolving(reference)?.string == expected)
    }

    @Test(
        "references browsers do not follow as HTTP resolve to nil",
        arguments: [
            "javascript:alert(1)", " JavaScript:alert(1)", "java\tscript:alert(1)", "mailto:a@b.c", "data:text/html,x",
            "tel:+1555", "ftp://a/", "//a b/", "//host:99999/", "http://", "https:", "a\u{1}b",
        ])
    func nonHTTPReferences(reference: String) throws {
        #expect(try #require(Self.base).resolving(reference) == nil)
    }

    @Test func resolutionCleansAsBrowsersDo() throws {
        let base = try #require(WebURL("https://Site.Example:443/dir/page.html"))
        #expect(base.resolving("  /a b/ü?q=ä b  ")?.string == "https://site.example/a%20b/%C3%BC?q=%C3%A4%20b")
        #expect(base.resolving("/x\n/y\t")?.string == "https://site.example/x/y")
        #expect(base.resolving("HTTP://Other:8080")?.string == "http://other:8080/")
        #expect(base.resolving("//cdn.example/lib.js")?.string == "https://cdn.example/lib.js")
        #expect(base.resolving("%2e%2E/x")?.path == "/dir/%2E%2E/x", "escaped dots are not dot segments")
    }

    @Test(
        "absolute URLs parse into normalised components",
        arguments: [
            ("HTTP://Example.COM", "http", "example.com", 80, "/", nil, nil, "http://example.com/"),
            ("https://a.b:443/x/../y?q=1#frag", "https", "a.b", 443, "/y", "q=1", nil, "https://a.b/y?q=1"),
            ("http://a:8080/p?", "http", "a", 8080, "/p", "", nil, "http://a:8080/p?"),
            ("http://user:pw@h/x", "http", "h", 80, "/x", nil, "user:pw", "http://user:pw@h/x"),
            ("http://[::1]:8080/x", "http", "[::1]", 8080, "/x", nil, nil, "http://[::1]:8080/x"),
            ("http://[2001:DB8::1]/", "http", "[2001:db8::1]", 80, "/", nil, nil, "http://[2001:db8::1]/"),
            ("  http://h/a%2fb%7e  ", "http", "h", 80, "/a%2Fb%7E", nil, nil, "http://h/a%2Fb%7E"),
            ("http://h:/", "http", "h", 80, "/", nil, nil, "http://h/"),
            ("https://h:80/", "https", "h", 80, "/", nil, nil, "https://h:80/"),
        ] as [(String, String, String, Int, String, String?, String?, String)])
    func parses(
        text: String, scheme: String, host: String, port: Int, path: String, query: String?, userInfo: String?,
        string: String
    ) throws {
        let url = try #require(WebURL(text))
        #expect(url.scheme == scheme)
        #expect(url.host == host)
        #expect(url.port == port)
        #expect(url.path == path)
        #expect(url.query == query)
        #expect(url.userInfo == userInfo)
        #expect(url.string == string)
        #expect(url.description == string)
    }

    @Test(
        "invalid absolute URLs are refused",
        arguments: [
            "", "/relative", "example.com/x", "ftp://h/", "javascript:alert(1)", "http:/h", "http:h", "http://",
            "http://:80/", "http://a:99999/", "http://a:-1/", "http://a:8o/", "http://a b/", "http://a/b c",
            "http://a/\u{7}x", "http://[::1/", "http://[zz::1]/", "http://h\\@evil/", "http://é.example/",
            "http://a:1:2/",
        ])
    func refuses(text: String) {
        #expect(WebURL(text) == nil)
    }

    @Test func fragmentIsKeptButNotSerialised() throws {
        let url = try #require(WebURL("http://h/p?q#top"))
        #expect(url.fragment == "top")
        #expect(url.string == "http://h/p?q")
        #expect(url.pathAndQuery == "/p?q")
    }

    @Test func originsCompareSchemeHostAndPort() throws {
        let one = try #require(WebURL("http://127.0.0.1:8080/a"))
        #expect(one.origin.description == "http://127.0.0.1:8080")
        #expect(one.origin == WebURL("HTTP://127.0.0.1:8080/b?x")?.origin)
        #expect(one.origin != WebURL("https://127.0.0.1:8080/a")?.origin)
        #expect(WebURL("https://h:443/")?.origin.description == "https://h")
        #expect(WebOrigin(scheme: "HTTP", host: "H", port: 80) == WebURL("http://h/")?.origin)
    }

    @Test func queryItemsDecodeAndReencode() throws {
        let url = try #require(WebURL("http://h/s?q=a+b%20c&empty=&flag&bad=%zz%4&u=%C3%BC#f"))
        #expect(url.queryItems.map { "\($0.name)|\($0.value)" } == ["q|a b c", "empty|", "flag|", "bad|%zz%4", "u|ü"])
        let changed = url.withQuery([("q", "x&y=z"), ("n", "1 2")])
        #expect(changed.string == "http://h/s?q=x%26y%3Dz&n=1%202")
        #expect(changed.fragment == "f")
        #expect(url.withQuery([]).string == "http://h/s")
    }

    @Test func dedupeKeyIgnoresValuesAndOrder() throws {
        let one = try #require(WebURL("http://h:81/p?b=1&a=2&b=3"))
        let two = try #require(WebURL("http://h:81/p?a=9&b=8#x"))
        #expect(one.dedupeKey == "http://h:81/p?a&b")
        #expect(one.dedupeKey == two.dedupeKey)
        #expect(WebURL("http://h:81/p")?.dedupeKey == "http://h:81/p")
        #expect(WebURL("http://h:81/p?a=1&c=1")?.dedupeKey != one.dedupeKey)
    }

    @Test func longDotSegmentPathsStayBounded() throws {
        let base = try #require(WebURL("http://h/a/b"))
        let reference = String(repeating: "../", count: 100_000) + "x"
        #expect(base.resolving(reference)?.string == "http://h/x")
    }
}
