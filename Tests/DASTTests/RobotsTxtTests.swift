import Testing

@testable import DAST

/// RFC 9309: groups, longest match, ties, `*` and `$`, sitemaps, and paths as crawl seeds.
@Suite struct RobotsTxtTests {
    /// The example file of RFC 9309 §5.1.
    private static let rfcExample = RobotsTxt.parse(
        """
        User-Agent: *
        Disallow: *.gif$
        Disallow: /example/
        Allow: /publications/

        User-Agent: foobot
        Disallow:/
        Allow:/example/page.html
        Allow:/example/allowed.gif

        User-Agent: barbot
        User-Agent: bazbot
        Disallow: /example/page.html

        User-Agent: quxbot

        EOF
        """)

    @Test(
        "RFC 9309 §5.1 example",
        arguments: [
            ("foobot", "/example/page.html", true), ("foobot", "/example/allowed.gif", true), ("foobot", "/other", false),
            ("FooBot/2.1 (+http://foo)", "/other", false), ("barbot", "/example/page.html", false),
            ("bazbot", "/example/page.html", false), ("barbot", "/example/other.html", true), ("quxbot", "/example/x", true),
            ("otherbot", "/example/x", false), ("otherbot", "/a/b.gif", false), ("otherbot", "/a/b.gif?x", true),
            ("otherbot", "/publications/x", true), ("otherbot", "/robots.txt", true),
        ])
    func rfcExample(agent: String, path: String, allowed: Bool) {
        #expect(Self.rfcExample.allows(path: path, agent: agent) == allowed)
    }

    @Test func longestMatchWinsAndAllowWinsTies() {
        let robots = RobotsTxt.parse(
            "User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\nAllow: /tie\nDisallow: /tie\n")
        #expect(robots.allows(path: "/example/page/", agent: "x"))
        #expect(!robots.allows(path: "/example/page/disallowed.gif", agent: "x"))
        #expect(robots.allows(path: "/tie/x", agent: "x"))
    }

    @Test(
        "wildcards and end anchors",
        arguments: [
            ("/fish", "/fish", true), ("/fish", "/fish.html", true), ("/fish", "/fishheads/yummy.html", true),
            ("/fish", "/fish.php?id=anything", true), ("/fish", "/Fish.asp", false), ("/fish", "/catfish", false),
            ("/fish", "/?id=fish", false), ("/fish*", "/fishheads", true), ("/fish/", "/fish", false),
            ("/*.php", "/folder/filename.php?x", true), ("/*.php$", "/filename.php", true),
            ("/*.php$", "/folder/filename.php", true), ("/*.php$", "/filename.php?parameters", false),
            ("/*.php$", "/filename.php5", false), ("/*.php$", "/windows.PHP", false), ("/fish*.php", "/fish.php", true),
            ("/fish*.php", "/fishheads/catfish.php?parameters", true), ("/fish*.php", "/Fish.PHP", false),
            ("/a$b", "/a$b/c", true), ("*", "/anything", true), ("/$", "/", true), ("/$", "/x", false),
            ("/ü", "/%c3%bc/x", true), ("/a*b*c*d$", "/a-b-c-d", true), ("/a*b*c*d$", "/a-c-b-d", false),
        ])
    func patterns(pattern: String, path: String, matches: Bool) {
        let robots = RobotsTxt.parse("User-agent: *\nDisallow: \(pattern)\n")
        #expect(robots.allows(path: path, agent: "sentinel") != matches)
    }

    @Test func parsingDetails() {
        let robots = RobotsTxt.parse(
            """
            Disallow: /before-any-group
            Sitemap: https://site.test/sitemap.xml
            # comment
            user-agent: Sentinel # inline comment
            disallow: /private/*/edit$
            Disallow:
            Crawl-delay: 10
            User-agent: *
            Allow: /public$
            Disallow: /admin\r
            Sitemap: https://site.test/sitemap.xml
            SITEMAP:https://site.test/news.xml
            """)
        #expect(robots.groups.map(\.agents) == [["sentinel"], ["*"]])
        #expect(robots.groups[0].rules == [RobotsTxt.Rule(allow: false, pattern: "/private/*/edit$")])
        #expect(robots.sitemaps == ["https://site.test/sitemap.xml", "https://site.test/news.xml"])
        #expect(robots.paths == ["/private/", "/public", "/admin"])
        #expect(robots.rules(for: "Sentinel/1.0").count == 1)
        #expect(robots.rules(for: "curl/8").count == 2)
        #expect(RobotsTxt.parse("").allows(path: "/x", agent: "a"))
    }

    @Test func hostileFilesStayBounded() {
        let huge = "User-agent: *\n" + String(repeating: "Disallow: /x\n", count: 100_000)
        let robots = RobotsTxt.parse(huge)
        #expect(robots.groups.flatMap(\.rules).count < 100_000, "only the first 500 KiB is read")
        let star = "User-agent: *\nDisallow: " + String(repeating: "*a", count: 1_000) + "$\n"
        #expect(RobotsTxt.parse(star).allows(path: "/" + String(repeating: "a", count: 999), agent: "x"))
        #expect(!RobotsTxt.parse(star).allows(path: "/" + String(repeating: "a", count: 1_000), agent: "x"))
    }
}
