import Testing

@testable import DAST

/// Sitemaps: URL sets, indexes and plain text.
@Suite struct SitemapTests {
    @Test func urlSetWithPrefixesEntitiesAndCDATA() {
        let xml = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8"?>
            <!-- <url><loc>http://commented/</loc></url> -->
            <s:urlset xmlns:s="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://x">
              <s:url><s:loc>
                http://site.test/a?x=1&amp;y=2
              </s:loc><s:lastmod>2024-01-01</s:lastmod></s:url>
              <url><loc><![CDATA[http://site.test/b?<c>]]></loc>
                <image:image><image:loc>http://site.test/photo.jpg</image:loc></image:image></url>
              <url note="a > b"><LOC>http://site.test/&#x63;</LOC></url>
              <url><loc></loc></url>
            </s:urlset>
            """
        let result = Sitemap.parse(xml)
        #expect(result.urls == ["http://site.test/a?x=1&y=2", "http://site.test/b?<c>", "http://site.test/c"])
        #expect(result.sitemaps.isEmpty)
    }

    @Test func sitemapIndex() {
        let xml = """
            <sitemapindex><sitemap><loc>https://site.test/s1.xml</loc></sitemap>
            <sitemap><loc> https://site.test/s2.xml.gz </loc><lastmod>x</lastmod></sitemap></sitemapindex>
            """
        let result = Sitemap.parse(xml)
        #expect(result.sitemaps == ["https://site.test/s1.xml", "https://site.test/s2.xml.gz"])
        #expect(result.urls.isEmpty)
    }

    @Test func plainText() {
        let text = "http://site.test/a\r\n  https://site.test/b  \n\nnot a url\nftp://x/\nhttp://has space/\n"
        #expect(Sitemap.parse(text).urls == ["http://site.test/a", "https://site.test/b"])
    }

    @Test func hostileSitemapsStayBounded() {
        let lines = (0..<60_000).map { "http://site.test/\($0)" }.joined(separator: "\n")
        #expect(Sitemap.parse(lines).urls.count == 50_000)
        let entries = String(repeating: "<url><loc>http://site.test/x</loc></url>", count: 60_000)
        #expect(Sitemap.parse("<urlset>" + entries).urls.count == 50_000)
        let long = "<urlset><url><loc>http://site.test/" + String(repeating: "a", count: 100_000) + "</loc></url></urlset>"
        #expect(Sitemap.parse(long).urls.isEmpty)
        #expect(Sitemap.parse("<urlset><url><loc>http://unterminated").urls == ["http://unterminated"])
        #expect(Sitemap.parse("<!--" + String(repeating: "<url><loc>x</loc></url>", count: 10_000)).urls.isEmpty)
        #expect(Sitemap.parse(String(repeating: "<", count: 1 << 20)).urls.isEmpty)
        #expect(Sitemap.parse("").urls.isEmpty)
    }
}
