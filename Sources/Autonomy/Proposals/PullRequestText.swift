import Foundation
import Git
import Heal
import Signals
import Support

/// Branch names, titles, `PR.md` and commit messages after the conventions reviewers know from
/// Dependabot and Renovate: `sentinel/pip/<package>-<version>` and "Bump X from A to B" for
/// bumps, `sentinel/fix/<rule-or-signal>-<short hash>` otherwise; a body with Summary, Why,
/// Change, Evidence, Risk and confidence, and How to revert; a commit message whose trailer block
/// names the signal's fingerprint and the proposal.
public enum PullRequestText {
    /// The branch for `candidate` (`patchHash` is the SHA-256 of its patch).
    public static func branch(for candidate: Candidate, patchHash: String) -> String {
        if candidate.actor == .dependencyBump, let dependency = candidate.signal.dependency,
            let version = candidate.targetVersion
        {
            let ecosystem = dependency.ecosystem.hasPrefix("PyPI") ? "pip" : slug(dependency.ecosystem)
            return "sentinel/\(ecosystem)/\(slug(dependency.package))-\(slug(version))"
        }
        return "sentinel/fix/\(slug(subject(of: candidate.signal)))-\(patchHash.prefix(8))"
    }

    /// The pull request title.
    public static func title(for candidate: Candidate) -> String {
        let signal = candidate.signal
        if candidate.actor == .dependencyBump, let dependency = signal.dependency, let version = candidate.targetVersion {
            return "Bump \(dependency.package) from \(dependency.installed) to \(version)"
        }
        let place = candidate.files.first.map { " in \($0)" } ?? ""
        switch signal.kind {
        case .finding: return "Fix \(signal.ruleId ?? "finding")\(place)"
        case .testFailure:
            let tests = signal.failingTests
            if tests.count == 1 { return "Fix failing test \(tests[0])" }
            return tests.isEmpty ? "Fix failing tests\(place)" : "Fix \(tests.count) failing tests\(place)"
        case .exception, .logError: return "Fix \(signal.exceptionType ?? "error")\(place)"
        case .vulnerableDependency: return "Fix vulnerable dependency\(place)"
        }
    }

    /// Labels: the policy's, plus `dependencies` for bumps and `security` for findings.
    public static func labels(for candidate: Candidate, configured: [String]) -> [String] {
        var labels = configured
        switch candidate.signal.kind {
        case .vulnerableDependency: labels += ["dependencies", "security"]
        case .finding: labels.append("security")
        default: labels.append("bug")
        }
        var seen = Set<String>()
        return labels.filter { seen.insert($0).inserted }
    }

    /// The commit message: the title, a short body, and the trailer block.
    public static func commitMessage(for candidate: Candidate, title: String, proposal: String) -> String {
        """
        \(title)

        \(candidate.description)

        \(unexercised(candidate) == nil ? "Verified" : "Checked, without the bumped version installed,") by Sentinel \
        in the sandbox (\(candidate.actor.rawValue), strategy \(candidate.strategy), \
        confidence \(format(candidate.confidence.value))).

        Sentinel-Signal: \(candidate.signal.fingerprint)
        Sentinel-Proposal: \(proposal)
        Sentinel-Action: \(ActionClass(candidate.actor).rawValue)

        """
    }

    /// The proposal id a commit message's trailer names, if any.
    public static func proposalTrailer(in message: String) -> String? {
        message.split(separator: "\n").reversed().lazy.compactMap { line -> String? in
            line.hasPrefix("Sentinel-Proposal: ") ? String(line.dropFirst("Sentinel-Proposal: ".count)) : nil
        }.first
    }

    /// `PR.md`.
    public static func body(for candidate: Candidate, document: ProposalDocument) -> String {
        var text = "# \(MarkdownText.inline(document.title))\n\n"
        text += "## Summary\n\n\(MarkdownText.inline(candidate.description))\n\n"
        if let reason = unexercised(candidate) {
            // The reason quotes pip's error line: the package index's words.
            text += "> **The tests did not run with the bumped version** (\(MarkdownText.inline(reason))); this bump is not verified.\n\n"
        }
        text +=
            "Proposed by `sentinel heal` (\(candidate.actor.rawValue), strategy `\(candidate.strategy)`); "
            + "proposal \(MarkdownText.code(document.id)), branch \(MarkdownText.code(document.branch))"
            + (document.base.map { " onto \(MarkdownText.code($0))" } ?? "")
            + " at \(MarkdownText.code(String(document.baseCommit.prefix(12)))).\n\n"
        text += "## Why\n\n" + why(candidate.signal) + "\n"
        if let rationale = candidate.rationale { text += modelWords(rationale) }
        text += "## Change\n\n" + diffStat(candidate.patch) + "\n"
        if let bump = candidate.bump { text += "## Advisories\n\n" + advisories(bump, exercised: candidate.exercised) + "\n" }
        if !candidate.notes.isEmpty {
            text += candidate.notes.map { "- Note: \(MarkdownText.inline($0))\n" }.joined() + "\n"
        }
        text += "## Evidence\n\n" + evidence(candidate) + "\n"
        text += "## Risk and confidence\n\n" + riskSection(candidate, document) + "\n"
        text += "## How to revert\n\n"
        text += "Close the pull request, or delete the branch: \(MarkdownText.code("git branch -D " + document.branch)). "
        text += "Once merged: `git revert <merge commit>`; the commit carries the trailer "
        text += "`Sentinel-Proposal: \(document.id)` (`git log --grep 'Sentinel-Proposal: \(document.id)'` finds it).\n"
        return text
    }

    /// The section quoting a model's explanation of its change, marked as its words: what was
    /// verified is Sentinel's, in the evidence. One quoted paragraph, whatever the reply held.
    /// Plain text in a block (`MarkdownText`): no mention, link, image or HTML of the model's reaches the page.
    static func modelWords(_ rationale: String) -> String {
        let line = rationale.split(whereSeparator: \.isNewline).joined(separator: " ")
        return "## What the model changed and why, in its words\n\n" + MarkdownText.block(line) + "\n"
    }

    /// For a bump whose tests did not run with the bumped version, why (`not exercised: …`).
    static func unexercised(_ candidate: Candidate) -> String? {
        candidate.exercised.flatMap { $0.hasPrefix("not exercised") ? $0 : nil }
    }

    static func why(_ signal: Signal) -> String {
        var text = ""
        switch signal.kind {
        case .vulnerableDependency:
            if let dependency = signal.dependency {
                text += "\(MarkdownText.code(dependency.package)) \(MarkdownText.word(dependency.installed)) "
                text += "(\(MarkdownText.word(dependency.ecosystem))) is affected by "
                text += dependency.advisories.map(advisoryLink).joined(separator: ", ")
                text += "; fixed in \(dependency.fixedVersions.map(MarkdownText.word).joined(separator: ", ")).\n"
            }
        case .finding:
            text += "Finding \(MarkdownText.code(signal.ruleId ?? "?"))"
            if let severity = signal.severity { text += " (\(severity.rawValue))" }
            text += ": \(MarkdownText.inline(signal.message))\n"
        case .testFailure:
            text +=
                "Failing: "
                + (signal.failingTests.isEmpty
                    ? MarkdownText.inline(signal.message) : signal.failingTests.map { MarkdownText.inline($0) }.joined(separator: ", "))
            text += "\n\n" + MarkdownText.block(signal.message.split(separator: "\n").prefix(3).joined(separator: "\n"))
        case .exception, .logError:
            text +=
                "\(MarkdownText.inline(signal.exceptionType ?? "error")): \(MarkdownText.inline(String(signal.message.split(separator: "\n").first ?? "")))\n"
        }
        let places = signal.locations.prefix(5).map { location in
            MarkdownText.code(location.file + (location.line.map { ":\($0)" } ?? ""))
        }
        if !places.isEmpty { text += "\nAt " + places.joined(separator: ", ") + ".\n" }
        text += "\nSignal \(MarkdownText.code(String(signal.fingerprint.prefix(16)))) from \(MarkdownText.code(signal.source)).\n"
        return text
    }

    /// A link to GitHub's advisory page for a GHSA id, OSV's for everything else; an id that is
    /// not only letters, digits and `.-_+~` (a signal's, so a stranger's) is written as a code
    /// span instead, never as a link it could bend.
    static func advisoryLink(_ id: String) -> String {
        guard MarkdownText.word(id) == id, !id.contains(":") else { return MarkdownText.code(id) }
        let page = id.hasPrefix("GHSA-") ? "https://github.com/advisories/\(id)" : "https://osv.dev/vulnerability/\(id)"
        return "[\(id)](\(page))"
    }

    /// `git diff --stat`-like lines: path, lines added and removed.
    static func diffStat(_ patch: String) -> String {
        var order: [String] = []
        var counts: [String: (added: Int, removed: Int)] = [:]
        var current: String?
        for line in patch.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("diff --git ") {
                let path = line.split(separator: " ").last.map { String($0.dropFirst(2)) } ?? "?"
                current = path
                order.append(path)
                counts[path] = (0, 0)
            } else if let file = current, line.hasPrefix("+"), !line.hasPrefix("+++ ") {
                counts[file]?.added += 1
            } else if let file = current, line.hasPrefix("-"), !line.hasPrefix("--- ") {
                counts[file]?.removed += 1
            }
        }
        var text = ""
        for path in order {
            let count = counts[path] ?? (0, 0)
            text += " \(path) | \(count.added + count.removed) " + String(repeating: "+", count: min(count.added, 30))
            text += String(repeating: "-", count: min(count.removed, 30)) + "\n"
        }
        let added = counts.values.map(\.added).reduce(0, +)
        let removed = counts.values.map(\.removed).reduce(0, +)
        text += " \(order.count) file\(order.count == 1 ? "" : "s") changed, \(added) insertion\(added == 1 ? "" : "s")(+), "
        text += "\(removed) deletion\(removed == 1 ? "" : "s")(-)\n"
        // The paths are the patch's (a model may name its files): a fence none of them can close.
        let fence = MarkdownFence.fence(for: text)
        return fence + "\n" + text + fence + "\n"
    }

    /// What the bump clears, what stays open, whether it is a major bump, and whether the tests
    /// ran with it installed.
    static func advisories(_ bump: BumpPlan, exercised: String?) -> String {
        func links(_ ids: [String]) -> String { ids.map(advisoryLink).joined(separator: ", ") }
        var text = "- \(MarkdownText.code(bump.package)) \(MarkdownText.word(bump.from)) → \(MarkdownText.word(bump.to))"
        text += bump.majorBump ? " — **major version bump**: read the changelog before merging.\n" : " (same major version).\n"
        text += "- Clears: " + (bump.clears.isEmpty ? "no known advisory" : links(bump.clears)) + ".\n"
        if let unchecked = bump.unchecked {
            text += "- Stays open: unknown, the other advisories of \(MarkdownText.code(bump.package)) were not checked: "
            text += "\(MarkdownText.inline(unchecked)).\n"
        } else {
            text +=
                "- Stays open: " + (bump.stillOpen.isEmpty ? "none known for \(MarkdownText.code(bump.package))" : links(bump.stillOpen))
                + ".\n"
        }
        if let exercised { text += "- Tests: \(MarkdownText.inline(exercised)).\n" }
        return text
    }

    static func evidence(_ candidate: Candidate) -> String {
        var text = "| | |\n|---|---|\n"
        if let run = candidate.verifications.first {
            text += "| Verify command | \(MarkdownText.code(run.command, inTable: true)) |\n"
        }
        let runs = candidate.verifications.map { "exit \($0.exitCode) (\($0.reason.rawValue), \($0.commandMilliseconds) ms)" }
        text += "| Runs on the patched tree | \(runs.joined(separator: "; ")) |\n"
        text += "| Tests before | \(testCounts(candidate.baseline)) |\n"
        text += "| Tests after | \(testCounts(candidate.verifications.last)) |\n"
        if let rescan = candidate.rescan {
            text +=
                "| Re-scan (\(rescan.tool)) | rule findings \(rescan.ruleFindingsBefore) → \(rescan.ruleFindingsAfter); "
                + "all findings \(rescan.findingsBefore) → \(rescan.findingsAfter)"
                + (rescan.introduced.isEmpty ? "" : "; introduced: \(MarkdownText.inline(rescan.introduced.joined(separator: ", ")))")
                + " |\n"
            if !rescan.openAfter.isEmpty {
                text += "| Still reported in the changed files | \(MarkdownText.inline(rescan.openAfter.joined(separator: "; "))) |\n"
            }
        }
        if let coverage = candidate.coverage {
            text += "| Added lines run by tests | \(coverage.covered) of \(coverage.total) |\n"
        }
        if let sandbox = candidate.sandbox { text += "| Sandbox | \(sandbox.line) |\n" }
        return text
    }

    static func testCounts(_ run: Verification?) -> String {
        guard let run else { return "not run" }
        guard let tests = run.tests else { return "exit \(run.exitCode) (no pytest counts)" }
        return "\(tests.passed.count) passed, \(tests.failed.count) failed (exit \(run.exitCode))"
    }

    static func riskSection(_ candidate: Candidate, _ document: ProposalDocument) -> String {
        var text = "- Confidence **\(format(candidate.confidence.value))**: "
        text +=
            candidate.confidence.inputs.sorted { $0.key < $1.key }.map { "\($0.key) \(signed($0.value))" }
            .joined(separator: ", ") + "\n"
        text += "- Risk **\(format(document.risk.value)) (\(document.risk.level.rawValue))**: "
        text +=
            document.risk.inputs.sorted { $0.key < $1.key }.map { "\($0.key) \(signed($0.value))" }
            .joined(separator: ", ") + "\n"
        text += "- Decision: **\(document.decision.level.rawValue)** (asked for \(document.decision.requested.rawValue)); "
        text += "decided by \(MarkdownText.code(document.decision.rule))\n"
        // A reason may quote the patch's paths (a protected file the model named).
        for reason in document.decision.reasons { text += "  - \(MarkdownText.inline(reason))\n" }
        return text
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }

    static func signed(_ value: Double) -> String { String(format: "%+.2f", value) }

    /// What a signal is about, for a branch name: the rule, the failing test's name, the exception.
    static func subject(of signal: Signal) -> String {
        if let rule = signal.ruleId { return rule }
        if let test = signal.failingTests.first {
            return String(test.split(separator: ":").last ?? Substring(test))
        }
        if let type = signal.exceptionType { return type }
        return signal.kind.rawValue
    }

    /// Lower case, `[a-z0-9._-]` only, no leading dots or dashes, at most 48 characters: safe in
    /// a ref name.
    static func slug(_ text: String) -> String {
        var result = ""
        for character in text.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber || character == "." || character == "_") {
                result.append(character)
            } else if !result.hasSuffix("-") {
                result.append("-")
            }
        }
        while result.hasSuffix(".lock") { result.removeLast(5) }
        result = result.replacingOccurrences(of: "..", with: ".")
        let trimmed = String(result.drop { $0 == "-" || $0 == "." }.prefix(48))
        let clean = String(trimmed.reversed().drop { $0 == "-" || $0 == "." }.reversed())
        return clean.isEmpty ? "change" : clean
    }
}
