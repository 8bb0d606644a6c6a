import Heal
import Testing

@testable import Autonomy

/// PR.md's Advisories section for a bump: a major bump is marked, what stays open is named,
/// and a plan made without the database says the rest was not checked.
@Suite("PR.md for dependency bumps")
struct BumpPullRequestTextTests {
    static func plan(to: String, major: Bool, open: [String], unchecked: String? = nil) -> BumpPlan {
        BumpPlan(
            package: "pyyaml", from: "5.3", to: to, majorBump: major, clears: ["PYSEC-2020-96"], stillOpen: open,
            unchecked: unchecked)
    }

    @Test("a major bump is marked and the advisories left open are linked")
    func majorAndOpen() {
        let text = PullRequestText.advisories(
            Self.plan(to: "6.0", major: true, open: ["GHSA-8q59-q68h-6hv4"]), exercised: "not exercised: reason")
        #expect(
            text == """
                - `pyyaml` 5.3 → 6.0 — **major version bump**: read the changelog before merging.
                - Clears: [PYSEC-2020-96](https://osv.dev/vulnerability/PYSEC-2020-96).
                - Stays open: [GHSA-8q59-q68h-6hv4](https://github.com/advisories/GHSA-8q59-q68h-6hv4).
                - Tests: not exercised\\: reason.

                """)
    }

    @Test("without the database the open advisories are unknown, not 'none'")
    func unchecked() {
        let text = PullRequestText.advisories(
            Self.plan(to: "5.3.1", major: false, open: [], unchecked: "no OSV database at /x"), exercised: nil)
        #expect(text.contains("- `pyyaml` 5.3 → 5.3.1 (same major version).\n"))
        #expect(text.contains("- Stays open: unknown, the other advisories of `pyyaml` were not checked: no OSV database at /x.\n"))
        #expect(!text.contains("none known"))
    }

    @Test("a model's explanation is quoted as its words, in one paragraph")
    func modelWords() {
        #expect(
            PullRequestText.modelWords("Divide by the count.\n# not a heading") == """
                ## What the model changed and why, in its words

                ```text
                Divide by the count. # not a heading
                ```


                """)
    }

    /// Hostile inputs round 3, finding 14: the model's prose is plain text on the page: no
    /// mention, issue reference, image beacon, link or HTML of its own, and no fence it can close.
    @Test("a model's mentions, references, images, links, HTML and fences stay inert")
    func modelWordsAreInert() {
        let hostile = "Fixed. @acme/security Fixes #1 ![x](https://beacon.example/p.png) <img src=x onerror=alert(1)> ```` done"
        let words = PullRequestText.modelWords(hostile)
        #expect(words.contains("`````text\n" + hostile + "\n`````\n"), "\(words)")
        let inline = MarkdownText.inline("@acme Fixes #1 [a](https://x.example) <b>")
        #expect(inline == ##"\@acme Fixes \#1 \[a\]\(https\://x\.example\) \<b\>"##)
    }
}
