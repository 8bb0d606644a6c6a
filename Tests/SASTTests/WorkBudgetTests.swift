import Findings
import Testing

@testable import SAST

/// A budget per file in work units (issue 77): a file whose analysis costs more is one high
/// `sentinel.file-not-analysed` finding naming the bound, whatever the machine's load, and the
/// same file and rules always cost the same units. Work is counted, never timed.
@Suite struct WorkBudgetTests {
    /// An Express route reaching `exec` through a forwarding chain of `length` functions.
    static func chainToExec(_ length: Int) -> String {
        "const express = require('express');\nconst child_process = require('child_process');\nconst app = express();\n"
            + LinearGrowthTests.chain(length) + "function g\(length)(x) { return child_process.exec(x); }\n"
            + "app.get('/run', (req, res) => { g0(req.query.cmd); res.send('ok'); });\n"
    }

    /// The taint rule the file's one flow is reported by.
    static func taintEngine(budget: Int? = nil) throws -> SASTEngine {
        var engine = try JavaScriptEngineTests.engine([("javascript.exec", "[javascript]", JavaScriptEngineTests.taint)])
        if let budget { engine.maxFileWork = budget }
        return engine
    }

    @Test func aFileOverItsBudgetIsOneHighFindingNamingTheBound() throws {
        let source = Self.chainToExec(200)
        let whole = try Self.taintEngine().scan(file: "app.js", source: source)
        #expect(whole.findings.map(\.ruleId) == ["javascript.exec"])
        #expect(!whole.workBudgetExceeded)
        // Half of what the file costs: the analysis stops inside the taint rule.
        let budget = whole.workUnits / 2
        let stopped = try Self.taintEngine(budget: budget).scan(file: "app.js", source: source)
        #expect(stopped.workBudgetExceeded)
        let finding = try #require(stopped.findings.first)
        #expect(stopped.findings.count == 1)
        #expect(finding.ruleId == ParserBoundFinding.descriptor.id)
        #expect(finding.severity == .high)
        #expect(finding.confidence == .high)
        #expect(finding.message.contains("work budget of \(budget) units exceeded during taint analysis (rule javascript.exec)"))
        // About the whole file, so that `--since` keeps it whenever the file changed.
        #expect(finding.location.file == "app.js")
        #expect(finding.location.startLine == nil)
        // It stopped soon after the budget, not at the end of the work.
        #expect(stopped.workUnits < whole.workUnits)
        // Exactly the file's cost is within its budget.
        let exact = try Self.taintEngine(budget: whole.workUnits).scan(file: "app.js", source: source)
        #expect(exact.findings.map(\.ruleId) == ["javascript.exec"])
    }

    @Test func theSameFileCostsTheSameUnits() throws {
        let source = Self.chainToExec(100)
        let engine = try Self.taintEngine()
        let first = engine.scan(file: "app.js", source: source)
        let second = engine.scan(file: "app.js", source: source)
        #expect(first.workUnits > 0)
        #expect(first.workUnits == second.workUnits)
        // In a project scan on several threads too, file by file.
        let files = ["app.js": source, "other.js": Self.chainToExec(50), "lib.js": LinearGrowthTests.chain(80)]
        let names = files.keys.sorted()
        let read: @Sendable (String) -> String? = { files[$0] }
        let once = engine.scanProject(files: names, read: read, progress: { _ in }, workers: 3).map { $0?.workUnits }
        let again = engine.scanProject(files: names, read: read, progress: { _ in }, workers: 1).map { $0?.workUnits }
        #expect(once == again)
        // The file with a route and a sink is analysed; a chain no rule applies to costs nothing.
        #expect((once[names.firstIndex(of: "app.js")!] ?? 0) > 0)
    }

    /// The rules that finished before the budget ran out keep their findings (each analysis was
    /// whole); the rule it ran out in reports none.
    @Test func findingsOfRulesFinishedBeforeTheBoundAreKept() throws {
        let source = Self.chainToExec(50)
        let search = "pattern: res.send(...)\n"
        let taintOnly = try Self.taintEngine().scan(file: "app.js", source: source)
        var both = try JavaScriptEngineTests.engine([
            ("javascript.exec", "[javascript]", JavaScriptEngineTests.taint), ("javascript.send", "[javascript]", search),
        ])
        let all = both.scan(file: "app.js", source: source)
        #expect(all.findings.map(\.ruleId).sorted() == ["javascript.exec", "javascript.send"])
        #expect(all.workUnits > taintOnly.workUnits)
        // Taint rules run first: a budget that covers only them stops in the search rule.
        both.maxFileWork = taintOnly.workUnits
        let stopped = both.scan(file: "app.js", source: source)
        #expect(stopped.findings.map(\.ruleId).sorted() == ["javascript.exec", "sentinel.file-not-analysed"])
        #expect(
            stopped.findings.contains {
                $0.message.contains("work budget of \(taintOnly.workUnits) units exceeded during pattern search (rule javascript.send)")
            })
    }

    /// A Python file over its budget too: one engine, one meter, whatever the language.
    @Test func aPythonFileOverItsBudgetIsTheSameFinding() throws {
        let source =
            "import os\n" + (0..<200).map { "def g\($0)(x):\n    return g\($0 + 1)(x)\n" }.joined()
            + "def g200(x):\n    return os.system(x)\ng0(input())\n"
        let engine = try engine(rule: "pattern: os.system(...)\n")
        let whole = engine.scan(file: "app.py", source: source)
        #expect(whole.findings.map(\.ruleId) == ["test.rule"])
        var bounded = engine
        bounded.maxFileWork = 0
        let stopped = bounded.scan(file: "app.py", source: source)
        #expect(stopped.findings.map(\.ruleId) == [ParserBoundFinding.descriptor.id])
        #expect(stopped.findings.first?.message.contains("work budget of 0 units exceeded during pattern search (rule test.rule)") == true)
    }
}
