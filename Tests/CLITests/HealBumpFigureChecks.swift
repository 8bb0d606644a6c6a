import Foundation
import Support
import Testing

/// Every figure a bump's evidence.json and PR.md print, recomputed from what happened: the pin
/// in the repository and the version the patch writes, the lines the patch changes, an
/// independent `sentinel scan` of the tree before and after the patch, pytest's own PASSED lines,
/// the sum of the confidence inputs, and the run times summed from the runs themselves.
enum FigureChecks {
    static func int(_ value: Any?) -> Int { (value as? NSNumber)?.intValue ?? -1 }

    static func evidence(_ evidence: [String: Any], setup: HealBumpCLITests.Setup, wall: Int) throws {
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        let bump = try #require(candidate["bump"] as? [String: Any])
        let patch = try String(contentsOfFile: setup.scratch.out + "/patch.diff", encoding: .utf8)
        let requirements = try String(contentsOfFile: setup.scratch.repo + "/requirements.txt", encoding: .utf8)
        let pin = setup.package + "=="
        // Versions: the pin in the repository and the one the patch writes.
        let pinned = requirements.split(separator: "\n").first { $0.hasPrefix(pin) }.map { String($0.dropFirst(pin.count)) }
        #expect(bump["from"] as? String == pinned)
        let written = patch.split(separator: "\n").first { $0.hasPrefix("+" + pin) }.map { String($0.dropFirst(pin.count + 1)) }
        #expect(bump["to"] as? String == written)
        // Changed lines: the patch's own + and - lines.
        let changed = patch.split(separator: "\n").filter {
            ($0.hasPrefix("+") && !$0.hasPrefix("+++")) || ($0.hasPrefix("-") && !$0.hasPrefix("---"))
        }
        #expect(int(candidate["changedLines"]) == changed.count)
        // Re-scan counts: a scan of the repository and of a patched copy.
        let rescan = try #require(candidate["rescan"] as? [String: Any])
        let before = try osvFindings(in: setup.scratch.repo, setup: setup)
        let copy = setup.scratch.root + "/patched"
        try FileManager.default.copyItem(atPath: setup.scratch.repo, toPath: copy)
        let applied = try CLI.runProgram("/usr/bin/git", ["-C", copy, "apply", setup.scratch.out + "/patch.diff"])
        #expect(applied.status == 0, "\(applied.stderr)")
        let after = try osvFindings(in: copy, setup: setup)
        #expect(int(rescan["findingsBefore"]) == before.count)
        #expect(int(rescan["findingsAfter"]) == after.count)
        let rule = (evidence["signal"] as? [String: Any])?["ruleId"] as? String
        #expect(int(rescan["ruleFindingsBefore"]) == before.filter { $0 == rule }.count)
        #expect(int(rescan["ruleFindingsAfter"]) == after.filter { $0 == rule }.count)
        #expect((rescan["openAfter"] as? [String])?.count == after.count)
        // Test counts: pytest's PASSED lines (-rA) of the baseline and the first candidate run.
        let runs = try #require(candidate["verifications"] as? [[String: Any]])
        let baseline = try #require(evidence["baseline"] as? [String: Any])
        #expect(int((candidate["testsAfter"] as? [String: Any])?["passed"]) == passedLines(runs[0]))
        #expect(int((candidate["testsBefore"] as? [String: Any])?["passed"]) == passedLines(baseline))
        // Confidence: the rounded sum of its inputs.
        let confidence = try #require(candidate["confidence"] as? [String: Any])
        let inputs = try #require(confidence["inputs"] as? [String: Double])
        let sum = (min(1, max(0, inputs.values.reduce(0, +))) * 100).rounded() / 100
        #expect(confidence["value"] as? Double == sum)
        #expect(inputs["verifiedTwice"] == (runs.count >= 2 ? 0.15 : 0))
        // Durations: each run's parts fit in it; the totals are the sums of the runs recorded.
        let attempts = try #require(evidence["attempts"] as? [[String: Any]])
        let all = [baseline] + attempts.flatMap { $0["verifications"] as? [[String: Any]] ?? [] }
        var total = 0
        var overhead = 0
        for run in all {
            let install = int((run["dependency"] as? [String: Any])?["installMilliseconds"] ?? 0)
            #expect(int(run["commandMilliseconds"]) + install <= int(run["totalMilliseconds"]))
            total += int(run["totalMilliseconds"])
            overhead += max(0, int(run["totalMilliseconds"]) - int(run["commandMilliseconds"]) - install)
        }
        let timing = try #require(evidence["timing"] as? [String: Any])
        #expect(int(timing["verificationMilliseconds"]) == total)
        #expect(int(timing["sandboxOverheadMilliseconds"]) == overhead)
        #expect(timing["sandboxOverheadShare"] as? Double == (Double(overhead) / Double(max(1, total)) * 1000).rounded() / 1000)
        // Runs overlap (--jobs), so their sum may exceed the wall time; the longest fits in it.
        let longest = all.map { int($0["totalMilliseconds"]) }.max() ?? 0
        #expect(int(timing["totalMilliseconds"]) >= longest && int(timing["totalMilliseconds"]) <= wall)
        // Stages: wall-clock segments one after another, so they fit in the total; the baseline's
        // holds its run, and the verifying stages hold every candidate run.
        let stages = try #require(timing["stages"] as? [[String: Any]])
        let spent = Dictionary(stages.map { ($0["stage"] as? String ?? "", int($0["milliseconds"])) }, uniquingKeysWith: +)
        #expect(stages.first?["stage"] as? String == "baseline")
        #expect(spent["baseline", default: -1] >= int(baseline["totalMilliseconds"]))
        #expect(spent.values.reduce(0, +) <= int(timing["totalMilliseconds"]))
        let verifying = spent.filter { $0.key.hasSuffix(" verifying") }.values.reduce(0, +)
        let candidateRuns = attempts.flatMap { $0["verifications"] as? [[String: Any]] ?? [] }
        #expect(verifying >= (candidateRuns.map { int($0["totalMilliseconds"]) }.max() ?? 0))
        #expect(attempts.filter { $0["verdict"] as? String == "verified" }.count == 1)
        // Each run: exit status and reason as pytest's closing line says, CPU within the
        // profile's 2 CPUs over the run's time, an install that took time when it installed.
        for run in all {
            #expect(int(run["exitCode"]) == 0 && run["reason"] as? String == "exited")
            #expect((run["outputTail"] as? String ?? "").contains("\(passedLines(run)) passed"))
            #expect(int(run["cpuMilliseconds"]) <= 2 * int(run["totalMilliseconds"]))
            if let dependency = run["dependency"] as? [String: Any], dependency["notExercised"] == nil {
                #expect(int(dependency["installMilliseconds"]) > 0)
            }
        }
        // The sandbox summary: the fix-verify profile as shipped.
        let sandbox = try #require(evidence["sandbox"] as? [String: Any])
        let profile = try String(contentsOfFile: CLI.packageRoot + "/profiles/fix-verify.yaml", encoding: .utf8)
        #expect(sandbox["profile"] as? String == "fix-verify" && profile.contains("name: fix-verify\n"))
        #expect(sandbox["network"] as? String == "none" && profile.contains("\nnetwork: none\n"))
        #expect(int(sandbox["memoryBytes"]) == 2 << 30 && profile.contains("  memory: 2G\n"))
        #expect(int(sandbox["pids"]) == 512 && profile.contains("  pids: 512\n"))
        #expect(int(sandbox["timeoutSeconds"]) == 1800 && profile.contains("  timeout: 30m\n"))
    }

    /// PR.md of the queued proposal, with its evidence table checked against `evidence`.
    static func pullRequest(setup: HealBumpCLITests.Setup, evidence: [String: Any]) throws -> String {
        let enumerator = FileManager.default.enumerator(atPath: setup.scratch.home)
        var found: String?
        while found == nil, let name = enumerator?.nextObject() as? String {
            if name.hasSuffix("/PR.md") { found = setup.scratch.home + "/" + name }
        }
        let text = try String(contentsOfFile: try #require(found), encoding: .utf8)
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        let runs = try #require(candidate["verifications"] as? [[String: Any]])
        let baseline = try #require(evidence["baseline"] as? [String: Any])
        let described = runs.map { "exit \(int($0["exitCode"])) (\($0["reason"] as? String ?? ""), \(int($0["commandMilliseconds"])) ms)" }
        #expect(text.contains("| Runs on the patched tree | \(described.joined(separator: "; ")) |\n"))
        #expect(text.contains("| Tests before | \(passedLines(baseline)) passed, 0 failed (exit 0) |\n"))
        #expect(text.contains("| Tests after | \(passedLines(runs[1])) passed, 0 failed (exit 0) |\n"))
        let rescan = try #require(candidate["rescan"] as? [String: Any])
        #expect(
            text.contains(
                "rule findings \(int(rescan["ruleFindingsBefore"])) → \(int(rescan["ruleFindingsAfter"])); "
                    + "all findings \(int(rescan["findingsBefore"])) → \(int(rescan["findingsAfter"]))"))
        let value = (candidate["confidence"] as? [String: Any])?["value"] as? Double ?? -1
        #expect(text.contains("- Confidence **\(String(format: "%.2f", value))**: "))
        if let exercised = candidate["exercised"] as? String {
            // Escaped: it quotes pip's words (the package index's).
            #expect(text.contains("- Tests: \(EncodedForms.markdownEscaped(exercised)).\n"))
        }
        #expect(
            text.contains(
                "| Sandbox | fix-verify: network none, workspace overlay, memory 2048 MiB, 512 pids, 2.0 CPUs, timeout 1800 s |\n"))
        return text
    }

    /// Rule ids of the osv findings `sentinel scan` reports in requirements.txt of `root`.
    static func osvFindings(in root: String, setup: HealBumpCLITests.Setup) throws -> [String] {
        let result = try CLI.run(
            ["scan", root, "--tools", "osv", "--format", "json", "--fail-on", "none", "--allow-stale-db"],
            environment: setup.scratch.environment)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = report?["findings"] as? [[String: Any]] ?? []
        return findings.filter { ($0["location"] as? [String: Any])?["file"] as? String == "requirements.txt" }
            .compactMap { $0["ruleId"] as? String }
    }

    /// pytest's `PASSED test-id` lines in a run's output.
    static func passedLines(_ run: [String: Any]) -> Int {
        (run["outputTail"] as? String ?? "").split(separator: "\n").filter { $0.hasPrefix("PASSED ") }.count
    }
}
