import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `scripts/gitlab-sast-report.py` turns a real `sentinel scan --format json` report into a GitLab
/// SAST report (schema 15.0.x: the fields GitLab requires, one vulnerability per finding).
@Suite(
    .serialized,
    .enabled(
        if: TestHost.canSandbox && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
        "needs root and user namespaces (the default scan runs tools sandboxed) and python3"))
struct GitLabReportCLITests {
    static let script = CLI.packageRoot + "/scripts/gitlab-sast-report.py"

    static func convert(_ path: String) throws -> (status: Int32, stdout: Data, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [script, path]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data, String(decoding: errors, as: UTF8.self))
    }

    @Test func aScanOfTheExamplesBecomesAGitLabSASTReport() throws {
        let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: home) }
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        let report = home + "/sentinel.json"
        let scan = try CLI.run(
            ["scan", CLI.packageRoot + "/examples", "--format", "json", "--output", report, "--allow-missing-db"],
            environment: environment,
            timeout: 300)
        #expect(scan.status == 1, "\(scan.stderr)")
        let findings = try #require(
            (try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: report))) as? [String: Any])?[
                "findings"] as? [[String: Any]])

        let converted = try Self.convert(report)
        #expect(converted.status == 0, "\(converted.stderr)")
        let gitlab = try #require(try JSONSerialization.jsonObject(with: converted.stdout) as? [String: Any])
        #expect((gitlab["version"] as? String)?.hasPrefix("15.0.") == true)
        let scanInfo = try #require(gitlab["scan"] as? [String: Any])
        #expect(scanInfo["type"] as? String == "sast")
        #expect(scanInfo["status"] as? String == "success")
        for key in ["start_time", "end_time"] {
            let stamp = try #require(scanInfo[key] as? String)
            #expect(stamp.wholeMatch(of: /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/) != nil, "\(key): \(stamp)")
        }
        for key in ["analyzer", "scanner"] {
            let tool = try #require(scanInfo[key] as? [String: Any])
            #expect(tool["id"] as? String == "sentinel")
            #expect((tool["vendor"] as? [String: Any])?["name"] as? String == "Sentinel")
        }
        let vulnerabilities = try #require(gitlab["vulnerabilities"] as? [[String: Any]])
        #expect(vulnerabilities.count == findings.count)
        #expect(!vulnerabilities.isEmpty)
        let severities = Set(vulnerabilities.compactMap { $0["severity"] as? String })
        #expect(severities.isSubset(of: ["Info", "Unknown", "Low", "Medium", "High", "Critical"]))
        #expect(severities.contains("Critical"))
        #expect(Set(vulnerabilities.compactMap { $0["id"] as? String }).count == vulnerabilities.count)
        for vulnerability in vulnerabilities {
            let identifiers = vulnerability["identifiers"] as? [[String: Any]] ?? []
            #expect(!identifiers.isEmpty && identifiers.allSatisfy { ($0["name"] as? String)?.isEmpty == false })
            #expect((vulnerability["location"] as? [String: Any])?["file"] as? String != nil)
        }
    }

    @Test func aFileThatIsNotAReportIsAOneLineErrorWithStatus2() throws {
        let path = NSTemporaryDirectory() + "not-a-report-\(UUID().uuidString).json"
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: path))
        defer { unlink(path) }
        let converted = try Self.convert(path)
        #expect(converted.status == 2)
        #expect(converted.stdout.isEmpty)
        #expect(converted.stderr.hasPrefix("\(path): not a sentinel JSON report ("))
        #expect(converted.stderr.split(separator: "\n").count == 1)
    }
}
