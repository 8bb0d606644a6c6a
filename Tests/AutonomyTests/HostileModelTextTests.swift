import Autonomy
import Foundation
import Support
import Git
import Heal
import Testing

@testable import Autonomy

/// Round 3, still open in round 4: the model's prose reached PR.md as live Markdown. Everything
/// of the model's on the page is inert: its explanation in a fenced block no line of it can
/// close, and what it chose elsewhere (the name of a file it wrote, which the title and the
/// change's stat quote), the notes and the signal's words, escaped or in code.
@Suite("PR.md: the model's text is inert")
struct HostileModelTextTests {
    static let hostileFile = "docs/[a](http:evil.example)```@acme.py"
    static let rationale = "Done. [docs](https://evil.example) ![b](https://beacon.example/p.png) @acme/security <img src=x> ```` # heading"

    @Test("the title, the change's stat, a note and the model's words, exactly")
    func exactText() throws {
        let repo = try TestRepository()
        var candidate = try Candidates.make(
            signal: Candidates.signal(), actor: .llmPatch,
            changes: [FileChange(path: Self.hostileFile, before: nil, after: "x = 1\n")], confidence: 0.5, coverage: nil)
        candidate.rationale = Self.rationale
        candidate.notes = ["[n](https://evil.example) @acme <b>"]
        let outcome = try AutonomyController(state: repo.state, environment: [:]).act(
            AutonomyRequest(candidate: candidate, repository: repo.path, requested: .proposer, policy: .default))
        let proposal = try #require(outcome.proposal)
        let body = try String(contentsOfFile: proposal.directory + "/PR.md", encoding: .utf8)
        #expect(body.hasPrefix(#"# Fix python\.yaml\-load in docs/\[a\]\(http\:evil\.example\)\`\`\`\@acme\.py"# + "\n\n"))
        #expect(
            body.contains(
                "## Change\n\n````\n docs/[a](http:evil.example)```@acme.py | 1 +\n 1 file changed, 1 insertion(+), 0 deletions(-)\n````\n"),
            "\(body)")
        #expect(body.contains(#"- Note: \[n\]\(https\://evil\.example\) \@acme \<b\>"# + "\n"))
        #expect(body.contains("## What the model changed and why, in its words\n\n`````text\n" + Self.rationale + "\n`````\n"))
        // Outside fenced blocks and code spans, nothing of it links, loads, mentions or becomes HTML.
        let live = Self.liveText(body)
        for rendered in ["](https://evil", "](https://beacon", "](http:evil", "<img", "<b>"] {
            #expect(!live.contains(rendered), "\(rendered) in \(live)")
        }
        #expect(live.range(of: #"(?<!\\)@acme"#, options: .regularExpression) == nil, "\(live)")
        #expect(!live.split(separator: "\n").contains { $0.hasPrefix("# heading") })
    }

    /// The text GitHub reads as Markdown: fenced blocks and code spans left out.
    static func liveText(_ body: String) -> String {
        var kept: [Substring] = []
        var fence: Substring?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false) {
            let ticks = line.prefix { $0 == "`" }
            if let open = fence {
                if ticks.count >= open.count, line.allSatisfy({ $0 == "`" }) { fence = nil }
                continue
            }
            if ticks.count >= 3 {
                fence = ticks
                continue
            }
            kept.append(line)
        }
        var text = kept.joined(separator: "\n")
        // Code spans: a run of backticks to the next run of the same length.
        while let start = text.range(of: #"(?<!\\)`+"#, options: .regularExpression) {
            let run = String(text[start])
            guard let end = text.range(of: run, range: start.upperBound..<text.endIndex) else { break }
            text.removeSubrange(start.lowerBound..<end.upperBound)
        }
        return text
    }

    @Test("the advisory ids, package and versions of a signal are written inert, links only for plain ids")
    func hostileAdvisory() {
        let plan = BumpPlan(
            package: "py`yaml", from: "5.3", to: "6.0 @acme", majorBump: false, clears: ["GHSA-x](https://evil.example)"],
            stillOpen: ["PYSEC-2020-96"])
        let text = PullRequestText.advisories(plan, exercised: nil)
        #expect(
            text == """
                - ``py`yaml`` 5.3 → 6\\.0 \\@acme (same major version).
                - Clears: `GHSA-x](https://evil.example)`.
                - Stays open: [PYSEC-2020-96](https://osv.dev/vulnerability/PYSEC-2020-96).

                """)
    }
}
