import Foundation
import Testing

@testable import Heal
@testable import Signals

/// The parts of a bump's evidence that need no sandbox: the wrapper's marked lines, what is
/// handed to pip, the "not exercised" reasons, the confidence penalty and the plan without a
/// database.
@Suite("Bump evidence")
struct BumpEvidenceTests {
    static let pin = PackagePin(package: "pyyaml", version: "5.4")

    @Test("the install line is the first (before the command ran), the imported line the last")
    func markers() {
        var stderr =
            "\n@@sentinel-install 2500000 \nfrom the tests\n@@sentinel-imported 9.9\n@@sentinel-install 1 forged\n"
            + "\n@@sentinel-tests-imported 5.4 /tmp/.sentinel-venv/lib/python3.11/site-packages/yaml/__init__.py\n"
            + "\n@@sentinel-imported 5.4\n"
        let record = BumpInstaller.record(for: Self.pin, index: .directory("/srv/wheels"), stderr: &stderr)
        #expect(record.installMilliseconds == 2)
        #expect(record.imported == "5.4")
        #expect(record.importedByTests == ["5.4 /tmp/.sentinel-venv/lib/python3.11/site-packages/yaml/__init__.py"])
        #expect(record.exercised)
        #expect(record.index == "wheel directory /srv/wheels")
        #expect(!stderr.contains("@@sentinel-install 2500000") && stderr.contains("from the tests"))
    }

    @Test(
        "why a run did not exercise the bump",
        arguments: [
            (
                nil, "\n@@sentinel-install 0 \n\n@@sentinel-imported 6.0\n",
                "not exercised: no package index was given (--package-index), so 5.4 was not installed; the tests' Python has pyyaml 6.0"
            ),
            (
                "/w", "\n@@sentinel-install 0 ERROR: No matching distribution found for pyyaml==5.4\n\n@@sentinel-imported 6.0\n",
                "not exercised: installing pyyaml==5.4 failed: ERROR: No matching distribution found for pyyaml==5.4"
            ),
            (
                "/w", "\n@@sentinel-install 0 \n\n@@sentinel-imported 6.0\n",
                "not exercised: 5.4 was installed but the tests' Python has pyyaml 6.0"
            ),
            (
                "/w", "\n@@sentinel-install 0 \n\n@@sentinel-imported \n",
                "not exercised: 5.4 was installed but pyyaml is not importable"
            ),
            (
                "/w", "\n@@sentinel-install 0 \n\n@@sentinel-imported 5.4\n",
                "not exercised: 5.4 was installed but no process of the tests imported pyyaml from it"
            ),
            (
                "/w",
                "\n@@sentinel-install 0 \n\n@@sentinel-tests-imported 5.4 /v/yaml/__init__.py\n"
                    + "\n@@sentinel-tests-imported 6.0 /usr/lib/python3/dist-packages/yaml/__init__.py\n\n@@sentinel-imported 5.4\n",
                "not exercised: 5.4 was installed but the tests imported pyyaml 6.0 /usr/lib/python3/dist-packages/yaml/__init__.py"
            ),
            (
                "/w", "killed before anything was printed",
                "not exercised: installing pyyaml==5.4 failed: the install step did not report (the run was cut short)"
            ),
        ] as [(String?, String, String)])
    func notExercised(_ index: String?, _ output: String, _ reason: String) {
        var stderr = output
        let record = BumpInstaller.record(for: Self.pin, index: index.map { .directory($0) }, stderr: &stderr)
        #expect(record.notExercised == reason)
    }

    @Test("5.4.0 installed for a 5.4 target is the same version (PEP 440)")
    func equalVersions() {
        var stderr = "\n@@sentinel-install 0 \n\n@@sentinel-tests-imported 5.4.0 /v/yaml/__init__.py\n\n@@sentinel-imported 5.4.0\n"
        #expect(BumpInstaller.record(for: Self.pin, index: .url("http://127.0.0.1:1/simple/"), stderr: &stderr).exercised)
    }

    @Test("a name or version that is not plain never reaches pip", arguments: ["--index-url=http://evil", "a b", "-e", "x;y"])
    func hostileNames(_ name: String) {
        let pin = PackagePin(package: name, version: "1.0")
        #expect(BumpInstaller.arguments(pin, index: .directory("/w"))[2] == "none")
        var stderr = "\n@@sentinel-install 0 \n\n@@sentinel-imported \n"
        let record = BumpInstaller.record(for: pin, index: .directory("/w"), stderr: &stderr)
        #expect(record.notExercised == "not exercised: \(name) 1.0 is not a plain package name and version")
        #expect(BumpInstaller.arguments(PackagePin(package: "ok", version: "1.0; rm"), index: .directory("/w"))[2] == "none")
        #expect(BumpInstaller.arguments(PackagePin(package: "Py_YAML.x", version: "1.0rc1"), index: .directory("/w"))[2] == "dir")
    }

    @Test("a bump not exercised stays below 0.95 however strong the rest of its evidence")
    func confidencePenalty() {
        let best = CandidateConfidence.compute(
            actor: .dependencyBump, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 2, memory: (50, 50),
            bumpExercised: false)
        #expect(best.value == 0.60)
        #expect(best.inputs["bumpNotExercised"] == -0.40)
        let exercised = CandidateConfidence.compute(
            actor: .dependencyBump, verifiedRuns: 2, ranTests: true, signalGone: true, changedLines: 2, memory: (0, 0),
            bumpExercised: true)
        #expect(exercised.value == 0.95 && exercised.inputs["bumpNotExercised"] == nil)
    }

    @Test("without a database the plan says the other advisories were not checked, and marks a major bump")
    func planWithoutDatabase() {
        let dependency = Signal.Dependency(
            ecosystem: "PyPI", package: "pyyaml", installed: "5.3", fixedVersions: ["6.0", "5.3.1"], advisories: ["CVE-2020-1747"])
        let plans = BumpPlan.plans(for: dependency, databasePath: "/nonexistent/osv.sqlite")
        #expect(plans.map(\.to) == ["5.3.1", "6.0"])
        #expect(plans.map(\.majorBump) == [false, true])
        #expect(plans[0].unchecked == "no OSV database at /nonexistent/osv.sqlite")
        #expect(
            plans[1].summary
                == "pyyaml 5.3 → 6.0 (major version bump) clears CVE-2020-1747; other advisories of pyyaml were not checked: "
                + "no OSV database at /nonexistent/osv.sqlite")
    }

    @Test("a candidate's time limit leaves room for its install when the baseline installed a pin")
    func timeoutCoversInstall() {
        var baseline = Verification(
            command: "pytest", exitCode: 0, reason: .exited, commandMilliseconds: 500, totalMilliseconds: 3000,
            cpuMilliseconds: 400, peakMemoryBytes: nil, tests: nil, outputTail: "")
        let loop = HealLoop(memory: nil)
        #expect(loop.candidateTimeout(baseline: baseline, budget: 900) == 30)
        var stderr = "\n@@sentinel-install 30000000000 \n\n@@sentinel-imported 5.4\n"
        baseline.dependency = BumpInstaller.record(for: Self.pin, index: .directory("/w"), stderr: &stderr)
        #expect(loop.candidateTimeout(baseline: baseline, budget: 900) == 30 + 90)
        #expect(loop.candidateTimeout(baseline: baseline, budget: 100) == 100)
    }
}
