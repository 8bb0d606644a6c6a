import Support
import Testing

@testable import Findings

@Suite struct GateTests {
    static func findings(_ severities: [Severity]) -> [Finding] {
        severities.enumerated().map { index, severity in
            Finding(ruleId: "r\(index)", severity: severity, message: "m", location: Location(file: "f.py", startLine: index + 1))
        }
    }

    @Test(arguments: [
        (Severity?.some(.high), [Severity](), ScanExitStatus.clean),
        (.some(.high), [.low, .medium], .clean),
        (.some(.high), [.low, .high], .findings),
        (.some(.high), [.critical], .findings),
        (.some(.low), [.low], .findings),
        (.some(.info), [.info], .findings),
        (.some(.critical), [.high], .clean),
        (nil, [.critical, .critical], .clean),
        // `unknown` (an advisory with no severity anywhere) gates like `high` at every threshold.
        (.some(.high), [.unknown], .findings),
        (.some(.medium), [.unknown], .findings),
        (.some(.critical), [.unknown], .clean),
        (nil, [.unknown], .clean),
    ])
    func exitStatus(failOn: Severity?, severities: [Severity], expected: ScanExitStatus) {
        #expect(Gate(failOn: failOn).exitStatus(for: Self.findings(severities)) == expected)
    }

    @Test func scannerFailureIsThreeEvenWithFindings() {
        let gate = Gate()
        #expect(gate.exitStatus(for: Self.findings([.critical]), scannerFailed: true) == .scannerFailed)
        #expect(gate.exitStatus(for: [], scannerFailed: true).rawValue == 3)
        var report = Report(findings: Self.findings([.low]), tools: [ToolRun(name: "bandit", status: .failed, message: "exit 2")])
        #expect(gate.exitStatus(for: report) == .scannerFailed)
        report.tools[0].status = .skipped
        #expect(gate.exitStatus(for: report) == .clean, "a skipped tool is a notice, not a failure")
    }

    @Test func defaultIsHigh() {
        #expect(Gate().failOn == .high)
        #expect(Gate().failing(Self.findings([.medium, .high, .critical])).count == 2)
    }

    @Test(arguments: [("none", Severity?.none), ("NONE", nil), ("medium", .some(.medium)), ("critical", .some(.critical))])
    func parsesFailOn(text: String, expected: Severity?) throws {
        #expect(try Gate(parsing: text).failOn == expected)
    }

    @Test func unknownIsNotAThreshold() {
        #expect {
            try Gate(parsing: "unknown")
        } throws: { error in
            (error as? SentinelError)?.message == "unknown threshold 'unknown' (expected none, info, low, medium, high, critical or proven)"
        }
    }

    /// Neutral wording: the CLI (`--fail-on`) and the config (`failOn`) each say where the text came from.
    @Test func badThresholdNamesTheValue() {
        #expect {
            try Gate(parsing: "sever")
        } throws: { error in
            (error as? SentinelError)?.message == "unknown threshold 'sever' (expected none, info, low, medium, high, critical or proven)"
        }
    }

    /// Issue 80: `--fail-on proven` fails only on findings a request proved, whatever their
    /// severity; a finding tried and not proven, or never tried, passes.
    @Test func provenGateFailsOnProofOnly() throws {
        let gate = try Gate(parsing: "proven")
        #expect(gate.requiresProof && gate.failOn == .info && gate.spelled == "proven")
        var findings = Self.findings([.critical, .low, .high])
        findings[1].facts.proof = ProofFacts(proven: true, oracle: "output: the marker came back")
        findings[2].facts.proof = ProofFacts(proven: false, reason: "route not reached (not found)")
        #expect(gate.failing(findings).map(\.severity) == [.low])
        #expect(gate.exitStatus(for: findings) == .findings)
        #expect(gate.exitStatus(for: [findings[0], findings[2]]) == .clean)
        #expect(Gate(failOn: .high, requiresProof: true).failing(findings).isEmpty)
        #expect(Gate(failOn: .high, requiresProof: true).spelled == "proven high")
    }
}
