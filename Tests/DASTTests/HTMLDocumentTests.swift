import Testing

@testable import DAST
@testable import Web

/// Links and titles from tolerant HTML parsing, including malformed and hostile pages.
@Suite struct HTMLDocumentTests {
    private static let page = WebURL("http://site.test/dir/page.html?x=1")

    private func parse(_ html: String, maxLinks: Int = HTMLDocument.defaultMaxLinks) throws -> HTMLDocument {
        HTMLDocument.parse(html, url: try #require(Self.page), maxLinks: maxLinks)
    }

    private func links(_ html: String) throws -> [String] {
        try parse(html).links.map { "\($0.kind.rawValue) \($0.source) \($0.url)" }
    }

    @Test func everyLinkSourceAndKind() throws {
        let html = """
            <html><head><title>Home</title>
            <link rel="stylesheet" href="/s.css"><link rel="canonical" href="/canonical">
            <meta http-equiv="Refresh" content="5; URL='/refreshed'">
            <script src="app.js"></script></head>
            <body><a href="next.html">n</a><area href="/map"><iframe src="/frame1"></iframe><frame src="/frame2">
            <img src="/i.png"><form action="/submit"></form><a href="javascript:void(0)">x</a><a href="mailto:a@b.c">m</a>
            <a href="#top">t</a><a href="https://other.test/x#f">o</a><a href="">self</a>
            <script>fetch("/api/users"); var u = 'https://site.test/abs'; // see http://site.test/comment
            var re = "//cdn"; var notUrl = "/ space"; var json = "\\/api\\/escaped";</script>
            """
        #expect(
            try links(html) == [
                "resource link[href] http://site.test/s.css", "navigation link[href] http://site.test/canonical",
                "navigation meta[refresh] http://site.test/refreshed", "resource script[src] http://site.test/dir/app.js",
                "navigation a[href] http://site.test/dir/next.html", "navigation area[href] http://site.test/map",
                "navigation iframe[src] http://site.test/frame1", "navigation frame[src] http://site.test/frame2",
                "resource img[src] http://site.test/i.png", "navigation form[action] http://site.test/submit",
                "navigation a[href] http://site.test/dir/page.html?x=1", "navigation a[href] https://other.test/x",
                "navigation script text http://site.test/api/users", "navigation script text https://site.test/abs",
                "navigation script text http://site.test/comment", "navigation script text http://site.test/api/escaped",
            ])
    }

    @Test func eventHandlersAreReadAsScripts() throws {
        let html = """
            <button onclick="window.location.href='/lab1'">a</button>
            <div onmouseover="location.assign(&quot;/lab2&quot;)" title="/not-a-link">b</div>
            <input type="button" ONCLICK="go('https://site.test/lab3')" value="/nor-this">
            <button onclick>c</button>
            """
        #expect(
            try links(html) == [
                "navigation button[onclick] http://site.test/lab1", "navigation div[onmouseover] http://site.test/lab2",
                "navigation input[onclick] https://site.test/lab3",
            ])
    }

    @Test func baseHrefAppliesToTheWholeDocument() throws {
        let document = try parse(
            #"<a href="early">e</a><base href="http://site.test/base/"><base href="/ignored/"><a href="../up">u</a>"#)
        #expect(document.baseURL.string == "http://site.test/base/")
        #expect(document.links.map(\.url.string) == ["http://site.test/base/early", "http://site.test/up"])
        #expect(try parse(#"<base href="javascript:x"><a href="a">"#).baseURL.string == "http://site.test/dir/page.html?x=1")
    }

    @Test func titleIsDecodedAndCollapsed() throws {
        let html = "<TITLE>\n  Tom &amp; Jerry&#39;s &lt;b&gt;  page </title><title>second</title>"
        #expect(try parse(html).title == "Tom & Jerry's <b> page")
        #expect(try parse("<p>no title</p>").title == nil)
    }

    @Test(
        "attribute values are entity-decoded",
        arguments: [
            (#"<a href="/a?x=1&amp;y=2">"#, "http://site.test/a?x=1&y=2"),
            (#"<a href='/q?&#39;&#x27;&quot;'>"#, "http://site.test/q?''%22"),
            ("<a href=/nb&nbsp;sp>", "http://site.test/nb%C2%A0sp"),
            (#"<a href="/c?a=1&copy=2">"#, "http://site.test/c?a=1&copy=2"),
            (#"<a href="/c?a=1&copy;">"#, "http://site.test/c?a=1%C2%A9"),
            (#"<a href="/d&#0;&#x110000;&#99999999999;">"#, "http://site.test/d%EF%BF%BD%EF%BF%BD%EF%BF%BD"),
            (#"<a href="/u&unknown;&amp">"#, "http://site.test/u&unknown;&"),
            (#"<a href="java&Tab;script&colon;x">"#, nil),
        ] as [(String, String?)])
    func entities(html: String, expected: String?) throws {
        #expect(try parse(html).links.first?.url.string == expected)
    }

    @Test func malformedMarkupIsReadAsBrowsersDo() throws {
        let html = """
            <div><a href=/unquoted?a=1 class=x>one<a href = "/spaced" >two
            <a href='/single'><p><a/href="/slash"><A HREF="/upper">
            <script>var s = "</div><a href='/not-a-link'>"; if (a < b) {}</script>
            <!-- <a href="/commented"> --><a href="/after-comment">
            <script>document.write("</script><a href="/after-fake-end">
            <style>a[href="/in-style"] {}</style><textarea><a href="/in-textarea"></textarea>
            <a href="/one"><a href="/one"><img src="/one">
            """
        #expect(
            try parse(html).links.map(\.url.path) == [
                "/unquoted", "/spaced", "/single", "/slash", "/upper", "/after-comment", "/after-fake-end", "/one", "/one",
            ])
        #expect(try parse(html).links.last?.kind == .resource, "the same URL is kept once per kind")
    }

    @Test func unterminatedConstructsRunToTheEnd() throws {
        #expect(try parse(#"<a href="/ok"><!-- <a href="/never">"#).links.map(\.url.path) == ["/ok"])
        #expect(try parse(#"<a href="/ok"><a href="/open"#).links.map(\.url.path) == ["/ok"], "a tag cut by the end is dropped")
        #expect(try parse(#"<a href="/ok"><script>"<a href='/x'>"#).links.map(\.url.path) == ["/ok"])
        #expect(try parse("<title>never closed <a href=/x>").title == "never closed <a href=/x>")
    }

    @Test func hostileInputEndsWithBoundedOutput() throws {
        let lessThans = try parse(String(repeating: "<", count: 10 << 20))
        #expect(lessThans.links.isEmpty && lessThans.forms.isEmpty && lessThans.title == nil)

        let comment = try parse("<a href=/a><!--" + String(repeating: "<a href=/b>", count: 100_000))
        #expect(comment.links.map(\.url.path) == ["/a"])

        let attributes = "<a " + String(repeating: "x=1 ", count: 100_000) + "href=/late><a href=/next>"
        #expect(try parse(attributes).links.map(\.url.path) == ["/next"], "attributes past the cap are dropped")

        let many = String(repeating: "<a href=/p?i=1><a href=/q>", count: 50_000) + "<a href=/r>"
        #expect(try parse(many, maxLinks: 5).links.count == 2)
        let distinct = (0..<30_000).map { "<a href=/p\($0)>" }.joined()
        #expect(try parse(distinct, maxLinks: 100).links.count == 100)
        #expect(try parse(distinct).links.count == 10_000)

        let quotes = try parse(#"<a href="/x" title="unterminated"# + String(repeating: "<a href=/y>", count: 10_000))
        #expect(quotes.links.isEmpty)
        let nested = try parse(String(repeating: "<div><form><select><option>", count: 30_000))
        #expect(nested.forms.count == 1)
        #expect(nested.forms.first?.fields.count == 10_000, "a select in a select closes it; controls are capped")
        #expect((nested.forms.first?.fields.first?.options.count ?? 0) <= 1_000)
    }

    @Test func separateKindsAreListed() throws {
        let document = try parse(#"<a href="/a"><img src="/a"><script src="/s.js"></script>"#)
        #expect(document.navigationLinks.map(\.path) == ["/a"])
        #expect(document.resourceLinks.map(\.path) == ["/a", "/s.js"])
    }

    @Test(
        "meta refresh content forms",
        arguments: [
            ("0; url=/a", "/a"), ("0;URL='/b'", "/b"), ("5, /c", "/c"), (" 1.5 ; url = \"/d\" ", "/d"), ("0", nil),
            ("0; url=", nil), ("/e", "/e"),
        ] as [(String, String?)])
    func refresh(content: String, expected: String?) {
        #expect(HTMLLinkSources.refreshURL(content) == expected)
    }
}
