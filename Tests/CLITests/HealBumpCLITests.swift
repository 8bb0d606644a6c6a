import Foundation
import Support
import TestSupport
import Testing

/// Dependency bumps through the real `sentinel heal` (issue 27, "Honest evidence"): the bumped
/// version is installed in the sandbox from a wheel directory the test builds and the evidence
/// records the version the tests' Python had; a bump that could not be installed says "not
/// exercised" and stays below the policy's 0.95; the version chosen clears every advisory of the
/// package; and every figure evidence.json and PR.md print is checked against what happened.
@Suite(
    "heal CLI: dependency bumps", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest,
        "runs pip and pytest in the sandbox: needs root, user namespaces and python3-pytest"))
struct HealBumpCLITests {
    static let package = "sentinel-fixture-textutil"

    /// A second advisory of the fixture package, fixed only in 1.1.0: 1.0.2 (the first
    /// advisory's fix) leaves it open, as pyyaml 5.3.1 left CVE-2020-14343 open.
    static let secondAdvisory = """
        {"schema_version": "1.6.0", "id": "SFX-TEST-0002", "modified": "2026-02-01T00:00:00Z",
         "summary": "sentinel-fixture-textutil truncate reads past the end (fictional)",
         "affected": [{"package": {"ecosystem": "PyPI", "name": "sentinel-fixture-textutil"},
                       "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "1.1.0"}]}]}]}
        """

    /// A fixture as a git repository (its requirements.txt replaced by `requirements` when
    /// given), the fixture packages' wheels (built by make_index.py) in `wheels`, an OSV
    /// database with `advisories` (fixture files) and `extra` records, and a report of the
    /// vulnerable pins. By default: textutil and both its advisories; heal works on the first
    /// (fixed in 1.0.2), as the issue's pyyaml report did.
    final class Setup {
        let scratch: HealCLITests.Scratch
        let package: String
        let finding: String
        var wheels: String { scratch.root + "/index/files" }
        var report: String { scratch.root + "/report.json" }

        init(
            fixture: String = "deps-textutil-newest-breaks", package: String = HealBumpCLITests.package,
            requirements: String? = nil, advisories: [String] = ["SFX-2026-0001"],
            extra: [String: String] = ["SFX-TEST-0002": HealBumpCLITests.secondAdvisory], finding: String = "SFX-2026-0001"
        ) throws {
            scratch = try HealCLITests.Scratch(fixture: fixture)
            self.package = package
            self.finding = finding
            if let requirements {
                try requirements.write(toFile: scratch.repo + "/requirements.txt", atomically: false, encoding: .utf8)
                let commit = try CLI.runProgram(
                    "/usr/bin/git",
                    ["-C", scratch.repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qam", "pins"])
                #expect(commit.status == 0, "\(commit.stderr)")
            }
            let build = try CLI.runProgram(
                "/usr/bin/python3", [HealCLITests.corpus + "/packages/make_index.py", scratch.root + "/index"])
            #expect(build.status == 0, "\(build.stderr)")
            let directory = scratch.root + "/osv"
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            for id in advisories {
                try FileManager.default.copyItem(
                    atPath: HealCLITests.corpus + "/packages/osv/\(id).json", toPath: directory + "/\(id).json")
            }
            for (id, json) in extra {
                try json.write(toFile: directory + "/\(id).json", atomically: false, encoding: .utf8)
            }
            let imported = try CLI.run(["db", "import", directory], environment: scratch.environment)
            #expect(imported.status == 0, "\(imported.stderr)")
            let scan = try CLI.run(
                [
                    "scan", scratch.repo, "--tools", "osv", "--format", "json", "--output", report, "--fail-on", "none",
                    "--allow-stale-db",  // the fixture advisories are years old
                ],
                environment: scratch.environment)
            #expect(scan.status == 0, "\(scan.stderr)")
        }

        /// A verify command that installs the pin itself from wheels copied into the repository
        /// (what a project without Sentinel's venv does): the tests pass whatever Sentinel installed.
        func selfInstallingVerify() throws -> String {
            try FileManager.default.copyItem(atPath: wheels, toPath: scratch.repo + "/wheels")
            let verify =
                "D=$(mktemp -d) && python3 -m pip install -q --disable-pip-version-check --no-cache-dir --no-deps "
                + "--target $D --no-index --find-links wheels -r requirements.txt && PYTHONPATH=$D python3 -m pytest -q"
            try verify.write(toFile: scratch.root + "/verify.txt", atomically: false, encoding: .utf8)
            return verify
        }

        func heal(verify: String, extra: [String]) throws -> (CLI.Result, [String: Any], Int) {
            let started = Date()
            let result = try CLI.run(
                [
                    "heal", "--signal", report, "--finding", finding, "--repo", scratch.repo, "--verify", verify,
                    "--out", scratch.out, "--format", "json",
                ] + extra, environment: scratch.environment, timeout: 900)
            let wall = Int(Date().timeIntervalSince(started) * 1000)
            let evidence = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
            return (result, evidence, wall)
        }
    }

    @Test("the bumped version is installed from --package-index and is the one the tests import; it clears both advisories")
    func installedAndImported() throws {
        let setup = try Setup()
        let verify =
            "python3 -c 'import importlib.metadata as m, sentinel_fixture_textutil as t; "
            + "print(\"IMPORTED\", m.version(\"sentinel-fixture-textutil\"), t.__file__)' && python3 -m pytest -q"
        let (result, evidence, wall) = try setup.heal(
            verify: verify, extra: ["--package-index", setup.wheels, "--level", "proposer"])
        #expect(result.status == 0, "\(evidence["attempts"] ?? "")\(evidence["notes"] ?? "")\(result.stderr)")
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        // Clears the package: 1.0.2 would leave SFX-TEST-0002 open.
        #expect(candidate["description"] as? String == "\(Self.package) 1.0.1 → 1.1.0 in requirements.txt")
        let bump = try #require(candidate["bump"] as? [String: Any])
        #expect(bump["clears"] as? [String] == ["SFX-2026-0001", "SFX-TEST-0002"])
        #expect(bump["stillOpen"] as? [String] == [])
        #expect(bump["majorBump"] as? Bool == false)
        #expect(bump["unchecked"] == nil)
        // Installed and imported, in every run.
        let runs = try #require(candidate["verifications"] as? [[String: Any]])
        #expect(runs.count == 2)
        for run in runs {
            let dependency = try #require(run["dependency"] as? [String: Any])
            #expect(dependency["target"] as? String == "1.1.0")
            #expect(dependency["imported"] as? String == "1.1.0")
            // Recorded in the tests' own process (pytest's), with the file it came from.
            let byTests = dependency["importedByTests"] as? [String] ?? []
            #expect(byTests.count == 1 && byTests[0].hasPrefix("1.1.0 /tmp/.sentinel-venv/lib/"), "\(byTests)")
            #expect(dependency["notExercised"] == nil)
            #expect(dependency["index"] as? String == "wheel directory \(setup.wheels)")
            // What the tests' own process imported, printed by the verify command itself.
            #expect((run["outputTail"] as? String ?? "").contains("IMPORTED 1.1.0 /tmp/.sentinel-venv/"))
        }
        #expect((candidate["exercised"] as? String ?? "").hasPrefix("exercised: \(Self.package) 1.1.0 installed"))
        let confidence = try #require(candidate["confidence"] as? [String: Any])
        #expect((confidence["inputs"] as? [String: Double])?["bumpNotExercised"] == nil)
        #expect(confidence["value"] as? Double ?? 0 >= 0.95)
        try FigureChecks.evidence(evidence, setup: setup, wall: wall)
        let pr = try FigureChecks.pullRequest(setup: setup, evidence: evidence)
        // The title is escaped like all text from outside (a package name is the signal's).
        #expect(pr.contains("# " + EncodedForms.markdownEscaped("Bump \(Self.package) from 1.0.1 to 1.1.0") + "\n"))
        #expect(pr.contains("- `\(Self.package)` 1.0.1 → 1.1.0 (same major version).\n"))
        #expect(
            pr.contains(
                "- Clears: [SFX-2026-0001](https://osv.dev/vulnerability/SFX-2026-0001), "
                    + "[SFX-TEST-0002](https://osv.dev/vulnerability/SFX-TEST-0002).\n"))
        #expect(pr.contains("- Stays open: none known for `\(Self.package)`.\n"))
    }

    @Test("without --package-index the bump is 'not exercised' and its confidence stays below 0.95")
    func noIndexNotExercised() throws {
        let setup = try Setup()
        let (result, evidence, _) = try setup.heal(verify: try setup.selfInstallingVerify(), extra: [])
        #expect(result.status == 0, "\(evidence["attempts"] ?? "")\(result.stderr)")
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        #expect(
            candidate["exercised"] as? String
                == "not exercised: no package index was given (--package-index), so 1.1.0 was not installed; "
                + "\(Self.package) is not importable")
        let confidence = try #require(candidate["confidence"] as? [String: Any])
        #expect((confidence["inputs"] as? [String: Double])?["bumpNotExercised"] == -0.40)
        #expect(confidence["value"] as? Double ?? 1 < 0.95)
        // As text, with a policy that lets bumps of requirements files through at actor level:
        // the controller keeps it a proposal because of its confidence.
        let policy = setup.scratch.root + "/policy.yml"
        try """
        rules:
          - id: bumps
            allow: [dependency-bump]
            paths: ["requirements*.txt"]
        actor: {minConfidence: 0.95, maxRisk: high}

        """.write(toFile: policy, atomically: false, encoding: .utf8)
        let text = try CLI.run(
            [
                "heal", "--signal", setup.report, "--finding", "SFX-2026-0001", "--repo", setup.scratch.repo, "--verify",
                try String(contentsOfFile: setup.scratch.root + "/verify.txt", encoding: .utf8), "--level", "actor",
                "--policy", policy,
            ], environment: setup.scratch.environment, timeout: 900)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.hasPrefix("heal: unexercised bump (the tests passed, but not with the bumped version) for "))
        #expect(
            text.stdout.contains(
                "\n  bumped version: not exercised: no package index was given (--package-index), so 1.1.0 was not installed; "
                    + "\(Self.package) is not importable\n"))
        #expect(text.stdout.contains("\nautonomy: proposer (asked for actor); decided by min-confidence\n"), "\(text.stdout)")
        #expect(text.stdout.contains("is below the policy's minimum 0.95"))
    }

    @Test("a wheel directory without the version: 'not exercised' with pip's reason, confidence below 0.95")
    func installFailsNotExercised() throws {
        let setup = try Setup()
        let empty = setup.scratch.root + "/empty-wheels"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let (result, evidence, _) = try setup.heal(
            verify: try setup.selfInstallingVerify(), extra: ["--package-index", empty, "--level", "proposer"])
        #expect(result.status == 0, "\(evidence["attempts"] ?? "")\(result.stderr)")
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        let exercised = candidate["exercised"] as? String ?? ""
        #expect(
            exercised.hasPrefix(
                "not exercised: installing \(Self.package)==1.1.0 failed: ERROR: Could not find a version that satisfies"),
            "\(exercised)")
        #expect((candidate["confidence"] as? [String: Any])?["value"] as? Double ?? 1 < 0.95)
        let pr = try FigureChecks.pullRequest(setup: setup, evidence: evidence)
        #expect(
            pr.contains(
                "> **The tests did not run with the bumped version** (\(EncodedForms.markdownEscaped(exercised))); this bump is not verified.\n"
            ))
    }

    @Test("a major bump is marked, and the other vulnerable pin of the same file is reported as still open")
    func majorBumpAndOtherPins() throws {
        let setup = try Setup(
            fixture: "deps-mathops-compatible-release", package: "sentinel-fixture-mathops",
            requirements: "sentinel-fixture-mathops==0.9.1\nsentinel-fixture-kvparse==2.3.0\n",
            advisories: ["SFX-2026-0003", "SFX-2026-0002"], extra: [:], finding: "SFX-2026-0003")
        let (result, evidence, wall) = try setup.heal(
            verify: "python3 -m pytest -q", extra: ["--package-index", setup.wheels, "--level", "proposer"])
        #expect(result.status == 0, "\(evidence["attempts"] ?? "")\(evidence["notes"] ?? "")\(result.stderr)")
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        #expect(candidate["description"] as? String == "sentinel-fixture-mathops 0.9.1 → 1.0.0 (major) in requirements.txt")
        let bump = try #require(candidate["bump"] as? [String: Any])
        #expect(bump["majorBump"] as? Bool == true)
        #expect(bump["clears"] as? [String] == ["SFX-2026-0003"])
        let rescan = try #require(candidate["rescan"] as? [String: Any])
        #expect(rescan["openAfter"] as? [String] == ["sentinel-fixture-kvparse 2.3.0: SFX-2026-0002"])
        #expect((candidate["exercised"] as? String ?? "").hasPrefix("exercised: sentinel-fixture-mathops 1.0.0 installed"))
        try FigureChecks.evidence(evidence, setup: setup, wall: wall)
        let pr = try FigureChecks.pullRequest(setup: setup, evidence: evidence)
        #expect(
            pr.contains("- `sentinel-fixture-mathops` 0.9.1 → 1.0.0 — **major version bump**: read the changelog before merging.\n"))
        #expect(
            pr.contains(
                "| Still reported in the changed files | "
                    + EncodedForms.markdownEscaped("sentinel-fixture-kvparse 2.3.0: SFX-2026-0002") + " |\n"))
    }

    @Test("the tests import another copy (an older pin on PYTHONPATH): 'not exercised', naming the copy they imported")
    func testsImportAnotherCopy() throws {
        let setup = try Setup()
        try FileManager.default.copyItem(atPath: setup.wheels, toPath: setup.scratch.repo + "/wheels")
        let verify =
            "D=$(mktemp -d) && python3 -m pip install -q --disable-pip-version-check --no-cache-dir --no-deps --target $D "
            + "--no-index --find-links wheels sentinel-fixture-textutil==1.0.1 && PYTHONPATH=$D python3 -m pytest -q"
        let (result, evidence, _) = try setup.heal(verify: verify, extra: ["--package-index", setup.wheels])
        #expect(result.status == 0, "\(evidence["attempts"] ?? "")\(result.stderr)")
        let candidate = try #require(evidence["candidate"] as? [String: Any])
        let exercised = candidate["exercised"] as? String ?? ""
        #expect(
            exercised.hasPrefix("not exercised: 1.1.0 was installed but the tests imported \(Self.package) 1.0.1 /tmp/"), "\(exercised)")
        #expect((candidate["confidence"] as? [String: Any])?["value"] as? Double ?? 1 < 0.95)
    }
}
