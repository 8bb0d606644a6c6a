import Foundation

@testable import Findings
import TestSupport

/// Shared sample data and environment probes for the Findings tests.
enum Fixtures {
    /// The package root, from this file's path (Tests/FindingsTests/Fixtures.swift).
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/corpora` next to the package (worktrees live beside `shared`).
    static let corpora: URL = Corpora.root

    static let sarifSchema: String = corpora.appendingPathComponent("sarif/sarif-schema-2.1.0.json").path

    /// `$SENTINEL_VENV/bin/python`, else `<package root>/.venv/bin/python`, if it imports jsonschema.
    static let validatorPython: String? = {
        var candidates: [String] = []
        if let venv = ProcessInfo.processInfo.environment["SENTINEL_VENV"], !venv.isEmpty {
            candidates.append(venv + "/bin/python")
        }
        candidates.append(packageRoot.appendingPathComponent(".venv/bin/python").path)
        for python in candidates where FileManager.default.isExecutableFile(atPath: python) {
            if let result = try? run(python, ["-c", "import jsonschema"]), result.status == 0 { return python }
        }
        return nil
    }()

    static let chromium: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs a program, returning its status and stdout/stderr.
    static func run(_ program: String, _ arguments: [String], stdin: Data? = nil) throws -> (status: Int32, stdout: String, stderr: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        try process.run()
        if let stdin {
            input.fileHandleForWriting.write(stdin)
            try input.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty stderr cannot block the child.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
    }

    static func sqlInjection(line: Int = 12) -> Finding {
        Finding(
            ruleId: "python.sqli", tool: "native", severity: .high, confidence: .high,
            message: "SQL query built from request.args reaches cursor.execute",
            location: Location(file: "app/db.py", startLine: line, startColumn: 5, endLine: line, endColumn: 40),
            cwe: [89], evidence: "request.args['id'] -> q -> cursor.execute(q)",
            snippet: "cursor.execute(\"SELECT * FROM t WHERE id=\" + q)", enclosingScope: "get_user",
            references: ["https://owasp.org/www-community/attacks/SQL_Injection"])
    }

    /// A finding with a data flow across two files, as the taint engine reports one: the source
    /// in a view, a helper call, the sink.
    static func commandInjectionWithFlow() -> Finding {
        Finding(
            ruleId: "python.cmdi", severity: .critical, confidence: .high,
            message: "request.args reaches os.system",
            location: Location(file: "app/tools.py", startLine: 9, startColumn: 5, endLine: 9, endColumn: 20),
            cwe: [78], snippet: "os.system(cmd)", enclosingScope: "run",
            codeFlow: [
                FlowStep(location: Location(file: "app/views.py", startLine: 4, startColumn: 9), message: "source: request.args"),
                FlowStep(
                    location: Location(file: "app/views.py", startLine: 4, startColumn: 5), message: "q = request.args['q']"),
                FlowStep(location: Location(file: "app/views.py", startLine: 5, startColumn: 5), message: "passed to helper run(cmd)"),
                FlowStep(location: Location(file: "app/tools.py", startLine: 9, startColumn: 5), message: "sink: os.system"),
            ])
    }

    static func banditShell(line: Int = 30) -> Finding {
        Finding(
            ruleId: "bandit.B602", tool: "bandit", severity: .high, confidence: .medium,
            message: "subprocess call with shell=True identified",
            location: Location(file: "app/run.py", startLine: line, startColumn: 1),
            cwe: [78], snippet: "subprocess.call(cmd, shell=True)")
    }

    static func weakHash() -> Finding {
        Finding(
            ruleId: "python.weak-hash", severity: .medium, confidence: .high, message: "MD5 is a weak hash",
            location: Location(file: "app/crypto.py", startLine: 3, startColumn: 7), cwe: [327],
            fix: Fix(
                description: "Use SHA-256",
                replacements: [
                    Fix.Replacement(startLine: 3, startColumn: 7, endLine: 3, endColumn: 18, text: "hashlib.sha256")
                ]),
            snippet: "h = hashlib.md5(data)")
    }

    static func reflectedXSS() -> Finding {
        Finding(
            ruleId: "dast.reflected-xss", tool: "dast", severity: .critical, confidence: .high,
            message: "Parameter q is reflected without encoding",
            location: Location(url: "http://127.0.0.1:8080/search?q=%3Cscript%3E", method: "GET", parameter: "q"),
            cwe: [79], evidence: "HTTP/1.1 200 OK ... <script>alert(1)</script>")
    }

    static func vulnerableDependency() -> Finding {
        Finding(
            ruleId: "osv.GHSA-xxxx-yyyy-zzzz", tool: "osv", severity: .low, confidence: .high,
            message: "requests 2.19.0 is affected by GHSA-xxxx-yyyy-zzzz; fixed in 2.20.0",
            location: Location(file: "requirements.txt", startLine: 4),
            fix: Fix(description: "Upgrade requests to 2.20.0"),
            facts: FindingFacts(dependency: DependencyFacts(fixedVersions: ["2.20.0"], aliases: ["CVE-2018-18074"])))
    }

    static func sampleReport() -> Report {
        Report(
            findings: [sqlInjection(), banditShell(), weakHash(), reflectedXSS(), vulnerableDependency()],
            rules: [
                RuleDescriptor(
                    id: "python.sqli", name: "SQL injection", shortDescription: "User input reaches a SQL query.",
                    fullDescription: "Data from an HTTP request flows into a SQL statement without parameters.",
                    help: "Use parameterised queries.", helpURI: "https://cwe.mitre.org/data/definitions/89.html",
                    defaultSeverity: .high, cwe: [89], tags: ["injection"])
            ],
            tools: [
                ToolRun(name: "native", version: "0.1.0", status: .succeeded),
                ToolRun(name: "bandit", version: "1.7.9", informationURI: "https://bandit.readthedocs.io/", status: .succeeded),
                ToolRun(name: "semgrep", status: .skipped, message: "not installed"),
            ],
            notices: [Notice(level: .warning, message: "cannot parse: unexpected indent at 3:1", file: "app/broken.py", tool: "native")],
            filesScanned: 42, durationSeconds: 1.234, suppressedCount: 2, baselinedCount: 1)
    }
}
