import TestSupport
import Testing

@testable import DAST
@testable import Web

/// Seeded random documents built from the characters parsers branch on: nothing crashes, and
/// each parser's invariants hold on every input.
@Suite struct ParserRobustnessTests {
    private static let pieces = [
        "<", ">", "</", "/", "=", "\"", "'", "`", " ", "\n", "\t", "&", "&amp;", "&#", "x", ";", "<!--", "-->", "<!",
        "<a href=", "<form action=", "<input name=", "<select>", "<option>", "<script>", "</script>", "<style>",
        "<textarea>", "<title>", "<base href=", "MARK", "javascript:", "http://", "//", "/*", "*/", "${", "}", "?", "#",
        "..", "./", "%", "%4", "é", "\\", "[", "]", ":", "@",
    ]

    private static func document(seed: UInt64) -> String {
        var generator = SeededRandom(state: seed)
        let count = Int.random(in: 0..<400, using: &generator)
        return (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
    }

    @Test(arguments: 0..<200)
    func htmlInvariants(seed: UInt64) throws {
        let html = Self.document(seed: seed)
        let page = try #require(WebURL("http://site.test/a/b?c=d"))
        let document = HTMLDocument.parse(html, url: page, maxLinks: 50)
        #expect(document.links.count <= 50)
        for link in document.links {
            #expect(["http", "https"].contains(link.url.scheme))
            #expect(WebURL(link.url.string) == link.url.with(fragment: nil), "serialising then parsing is the identity")
        }
        #expect(document.forms.allSatisfy { ["GET", "POST"].contains($0.method) })
        let expected = ByteSearch.offsets(of: Array("MARK".utf8), in: Array(html.utf8))
        #expect(ReflectionContext.occurrences(of: "MARK", in: html).map(\.offset) == expected, "every occurrence is placed")
        _ = ReflectionContext.executableReflections(of: "MARK", in: html)
    }

    @Test(arguments: 0..<200)
    func textFormatsNeverFail(seed: UInt64) {
        let text = Self.document(seed: seed)
        let robots = RobotsTxt.parse(text.replacing("<", with: "\nDisallow:").replacing(">", with: "\nUser-agent:*\n"))
        #expect(robots.paths.allSatisfy { $0.hasPrefix("/") })
        _ = robots.allows(path: "/a/MARK", agent: "sentinel")
        let sitemap = Sitemap.parse(text)
        #expect(sitemap.urls.count + sitemap.sitemaps.count <= Sitemap.maxEntries)
        if let url = WebURL("http://h/x").flatMap({ $0.resolving(text) }) {
            #expect(WebURL(url.string) == url)
        }
    }
}
