import Foundation
import Testing

/// Issue 29: a Python 2 file is analysed with the Python 2 dialect, and every format says so; a
/// file neither grammar reads keeps its skip warning. The native tools only, so no sandbox is needed.
@Suite(.serialized) struct Python2ScanCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] { CLI.environment(home: home) }

    static let files: [String: [UInt8]] = [
        "server.py": Array(
            """
            import os
            import tornado.web

            class PingHandler(tornado.web.RequestHandler):
                def post(self):
                    print "POST ", self.request.uri
                    host = self.get_argument('host')
                    os.system('ping -c 3 ' + host)

            """.utf8),
        "broken.py": Array("print 'a'\ndef f(:)\n".utf8),
        "modern.py": Array("print('fine')\n".utf8),
    ]

    @Test func aPython2FileIsAnalysedAndCountedInEveryFormat() throws {
        let root = try CLI.tree(Self.files, prefix: "sentinel-python2")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let base = ["scan", root, "--tools", "native", "--fail-on", "none"]
        let text = try CLI.run(base, environment: environment)
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("server.py:8:"), "\(text.stdout)")
        #expect(text.stdout.contains("note: 1 Python 2 file analysed with the Python 2 dialect"), "\(text.stdout)")
        // The file itself is listed with -v only; the file no grammar reads is a warning either way.
        #expect(!text.stdout.contains("server.py: note:"), "\(text.stdout)")
        #expect(text.stdout.contains("broken.py: warning: broken.py:1:1: Missing parentheses"), "\(text.stdout)")
        #expect(text.stdout.contains("(file skipped)"), "\(text.stdout)")
        let verbose = try CLI.run(base + ["-v"], environment: environment)
        #expect(
            verbose.stdout.contains("server.py: note: server.py:6:9: Missing parentheses in call to 'print'"),
            "\(verbose.stdout)")
        #expect(verbose.stdout.contains("(analysed with the Python 2 dialect)"), "\(verbose.stdout)")

        let json = try CLI.run(base + ["--format", "json"], environment: environment)
        let report = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let notices = (report?["summary"] as? [String: Any])?["notices"] as? [[String: Any]] ?? []
        let server = notices.first { $0["file"] as? String == "server.py" }
        #expect(server?["level"] as? String == "info", "\(notices)")
        #expect((server?["message"] as? String)?.hasSuffix("(analysed with the Python 2 dialect)") == true)
        #expect(notices.contains { $0["file"] as? String == "broken.py" && $0["level"] as? String == "warning" })
        #expect(!notices.contains { $0["file"] as? String == "modern.py" })
        let rules = (report?["findings"] as? [[String: Any]] ?? []).compactMap { finding -> String? in
            (finding["location"] as? [String: Any])?["file"] as? String == "server.py" ? finding["ruleId"] as? String : nil
        }
        #expect(rules.contains("python.taint-command-injection"), "\(rules)")

        let sarif = try CLI.run(base + ["--format", "sarif"], environment: environment)
        #expect(sarif.stdout.contains("analysed with the Python 2 dialect"))
    }
}
