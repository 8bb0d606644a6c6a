import Foundation
import Testing

/// Issue 77, a budget per file: `--max-file-work` set below what a file costs makes the file a
/// high `sentinel.file-not-analysed` finding naming the bound, and the default gate fails on it.
struct WorkBudgetCLITests {
    /// A Flask route reaching `os.system` through a few helpers.
    static let app = """
        import os
        from flask import Flask, request

        app = Flask(__name__)

        def run(command):
            return os.system(command)

        @app.route('/run')
        def handler():
            return str(run(request.args.get('cmd')))

        """

    @Test func aFileOverTheWorkBudgetFailsTheGateWithTheFinding() throws {
        let root = try CLI.tree(texts: ["app.py": Self.app], prefix: "workbudget")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let arguments = ["scan", root, "--sast", "--tools", "native", "--format", "json"]
        let bounded = try CLI.run(arguments + ["--max-file-work", "1"], timeout: 120)
        #expect(bounded.status == 1, "\(bounded.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(bounded.stdout.utf8)) as? [String: Any])
        let findings = report["findings"] as? [[String: Any]] ?? []
        let notAnalysed = findings.filter { $0["ruleId"] as? String == "sentinel.file-not-analysed" }
        #expect(notAnalysed.count == 1, "\(bounded.stdout.prefix(2000))")
        #expect(notAnalysed.first?["severity"] as? String == "high")
        let message = notAnalysed.first?["message"] as? String ?? ""
        #expect(message.contains("work budget of 1 units exceeded during"), "\(message)")
        #expect((notAnalysed.first?["location"] as? [String: Any])?["file"] as? String == "app.py")
        // Under the default budget the file is analysed and its flow found, and no bound is hit.
        let whole = try CLI.run(arguments, timeout: 120)
        #expect(!whole.stdout.contains("sentinel.file-not-analysed"), "\(whole.stdout.prefix(2000))")
        #expect(whole.stdout.contains("\"ruleId\""), "\(whole.stdout.prefix(2000))")
    }

    @Test func aBudgetBelowOneIsBadUsage() throws {
        let root = try CLI.tree(texts: ["app.py": Self.app], prefix: "workbudget")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["scan", root, "--max-file-work", "0"], timeout: 60)
        #expect(result.status == 2)
        #expect(result.stderr.contains("--max-file-work must be at least 1"), "\(result.stderr)")
    }
}
