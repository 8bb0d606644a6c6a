import Findings
import Foundation
import SAST
import Scan
import ScanCore
import Testing

/// `sentinel scan`'s precedence rules, called as the CLI calls them: the command line over the
/// configuration over the defaults, a tree's own config only ever tightening the data age limit.
@Suite("scan plan")
struct ScanPlanTests {
    /// A directory holding `app.py` and, when given, a `.sentinel.yml`.
    func tree(config: String? = nil) throws -> String {
        let root = NSTemporaryDirectory() + "scan-plan-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try "import os\n".write(toFile: root + "/app.py", atomically: false, encoding: .utf8)
        if let config { try config.write(toFile: root + "/.sentinel.yml", atomically: false, encoding: .utf8) }
        return root
    }

    func options(_ root: String) throws -> ScanOptions {
        ScanOptions(paths: try ScanPaths.resolve([root]), given: true)
    }

    @Test("--fail-on over the config's failOn over high")
    func gatePrecedence() throws {
        let configured = try tree(config: "failOn: low\n")
        let plain = try tree()
        defer { for root in [configured, plain] { try? FileManager.default.removeItem(atPath: root) } }
        #expect(try ScanPlan(try options(plain)).request.gate == Gate())
        #expect(try ScanPlan(try options(configured)).request.gate == Gate(failOn: .low))
        var explicit = try options(configured)
        explicit.failOn = Gate(failOn: .critical)
        #expect(try ScanPlan(explicit).request.gate == Gate(failOn: .critical))
    }

    @Test("--min-confidence over the config's minConfidence over medium")
    func confidencePrecedence() throws {
        let configured = try tree(config: "minConfidence: high\n")
        defer { try? FileManager.default.removeItem(atPath: configured) }
        #expect(try ScanPlan(try options(configured)).request.minimumConfidence == .high)
        var explicit = try options(configured)
        explicit.minConfidence = .low
        #expect(try ScanPlan(explicit).request.minimumConfidence == .low)
        let plain = try tree()
        defer { try? FileManager.default.removeItem(atPath: plain) }
        #expect(try ScanPlan(try options(plain)).request.minimumConfidence == Confidence.defaultMinimum)
    }

    @Test("data age: a tree's config may only lower the limit; --config and --max-db-age may raise it")
    func databaseAgePrecedence() throws {
        let day = 86_400.0
        let looser = try tree(config: "sca:\n  max-db-age: 30d\n")
        let stricter = try tree(config: "sca:\n  max-db-age: 1d\n")
        defer { for root in [looser, stricter] { try? FileManager.default.removeItem(atPath: root) } }
        #expect(try ScanPlan(try options(looser)).maxDatabaseAge == ScanContext.defaultMaxDatabaseAge)
        #expect(try ScanPlan(try options(stricter)).maxDatabaseAge == day)
        var operatorConfig = try options(stricter)
        operatorConfig.configFile = looser + "/.sentinel.yml"
        #expect(try ScanPlan(operatorConfig).maxDatabaseAge == 30 * day)
        var explicit = try options(looser)
        explicit.maxDatabaseAge = 90 * day
        #expect(try ScanPlan(explicit).maxDatabaseAge == 90 * day)
    }

    @Test("the flags choose the kinds; globs add to the config's; a baseline accepts the findings it wrote")
    func kindsGlobsAndBaseline() throws {
        let root = try tree(config: "exclude: [\"vendor/**\"]\n")
        defer { try? FileManager.default.removeItem(atPath: root) }
        var options = try options(root)
        options.kinds = [.sast, .secrets]
        options.excludes = ["build/**"]
        options.noDefaultExcludes = true
        let plan = try ScanPlan(options)
        #expect(plan.request.kinds == [.sast, .secrets])
        #expect(plan.config.exclude == ["vendor/**", "build/**"])
        #expect(!plan.config.defaultExcludes)
        #expect(plan.request.targets == [root])
        #expect(try ScanPlan(try self.options(root)).request.kinds == nil)
    }

    @Test("the shipped rules' CWEs for heal's risk: a known rule's, none for an unknown one")
    func shippedCWEs() {
        #expect(RuleSet.shippedCWEs(of: "python.any-function-shell-true") == [78])
        #expect(RuleSet.shippedCWEs(of: "python.no-such-rule").isEmpty)
        #expect(RuleSet.shippedCWEs(of: nil).isEmpty)
    }
}
