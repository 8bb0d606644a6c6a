#if canImport(Glibc)
    import Glibc
#endif
import Findings
import Foundation
import ScanCore
import Support
import Synchronization
import TestSupport
import Testing
import Web

@testable import Adapters

/// `ZAPScanner` end to end against a fake ZAP API on 127.0.0.1 (ZAP itself runs outside the
/// sandbox, so no sandbox is needed), and its inputs: the key file and the URLs.
@Suite(.integration) struct ZAPScannerTests {
    static let key = "zap-scanner-key-77aa"
    let target = ScanTarget(root: "/nonexistent", files: [])

    /// A private directory with `key` in `zap.key`, removed by the caller.
    static func keyFile(_ content: String = key + "\n") throws -> (directory: String, file: String) {
        let directory = try ScratchDirectory.make(prefix: "zap-key")
        let file = directory + "/zap.key"
        try content.write(toFile: file, atomically: false, encoding: .utf8)
        return (directory, file)
    }

    @Test func theScannerIsAnOptInDASTToolThatAppliesToAnyTarget() {
        let scanner = ZAPScanner(targetURL: "http://127.0.0.1:1/", apiURL: "http://127.0.0.1:2", apiKeyFile: nil)
        #expect(scanner.name == "zap")
        #expect(scanner.kind == .dast)
        #expect(!scanner.isDefault)
        #expect(scanner.applies(to: target))
        #expect(scanner.unavailableReason(context: ScanContext()) == nil)
    }

    @Test func aScanReadsTheKeyFileAndReportsZAPsAlerts() throws {
        let server = try FakeZAPServer(
            apiKey: Self.key,
            alerts: [
                FakeZAPServer.alert(["url": "http://127.0.0.1:8080/"]),
                FakeZAPServer.alert([
                    "pluginId": "40012", "name": "Cross Site Scripting (Reflected)", "risk": "High", "confidence": "Medium",
                    "url": "http://127.0.0.1:8080/search?q=x", "param": "q", "cweid": "79",
                ]),
            ])
        defer { server.stop() }
        let (directory, file) = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scanner = ZAPScanner(
            targetURL: "http://127.0.0.1:8080", apiURL: server.apiURL, apiKeyFile: file, active: true, maxDuration: 60,
            pollInterval: 0.01)
        let started = Mutex<[ToolName]>([])
        var context = ScanContext()
        context.progress = { event in
            if case .started(let tool, _) = event { started.withLock { $0.append(tool) } }
        }
        let output = try scanner.scan(target, context: context)
        #expect(output.tool.name == "zap")
        #expect(output.tool.version == "2.15.0")
        #expect(output.tool.informationURI == "https://www.zaproxy.org/")
        #expect(output.tool.durationSeconds != nil)
        #expect(output.findings.map(\.ruleId) == ["zap.10038", "zap.40012"])
        #expect(output.findings[1].location == Location(url: "http://127.0.0.1:8080/search?q=x", method: "GET", parameter: "q"))
        #expect(output.rules.map(\.id) == ["zap.10038", "zap.40012"])
        #expect(server.steps.contains("ascan/action/scan"))
        // A bare origin is scanned from `/`.
        #expect(server.calls.first { $0.step == "spider/action/scan" }?.parameters["url"] == "http://127.0.0.1:8080/")
        #expect(server.calls.allSatisfy { $0.apiKey == Self.key })
        #expect(started.withLock { $0 } == ["zap"])
    }

    @Test func aMissingKeyFileIsInvalidInputNamingTheFile() throws {
        let scanner = ZAPScanner(
            targetURL: "http://127.0.0.1:8080/", apiURL: "http://127.0.0.1:1", apiKeyFile: "/nonexistent/zap.key")
        #expect {
            _ = try scanner.scan(target, context: ScanContext())
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .invalidInput
                && error?.message == "/nonexistent/zap.key: cannot read the ZAP API key file: cannot open: No such file or directory"
        }
    }

    @Test(arguments: [
        ("", "the ZAP API key file is empty"),
        (" \n\t\n", "the ZAP API key file is empty"),
        ("first\nsecond\n", "the ZAP API key file must hold the key alone, on one line"),
        (String(repeating: "k", count: 5000), "cannot read the ZAP API key file: larger than 4096 bytes"),
    ])
    func aBadKeyFileIsInvalidInput(content: String, problem: String) throws {
        let (directory, file) = try Self.keyFile(content)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scanner = ZAPScanner(targetURL: "http://127.0.0.1:8080/", apiURL: "http://127.0.0.1:1", apiKeyFile: file)
        #expect {
            _ = try scanner.scan(target, context: ScanContext())
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .invalidInput && error?.message == "\(file): \(problem)"
                && !(error?.message.contains("first") ?? true)
        }
    }

    @Test func aKeyFileThatIsNotARegularFileIsRefused() throws {
        let directory = try ScratchDirectory.make(prefix: "zap-key")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        for path in [directory, fifo] {
            let scanner = ZAPScanner(targetURL: "http://127.0.0.1:8080/", apiURL: "http://127.0.0.1:1", apiKeyFile: path)
            #expect {
                _ = try scanner.scan(target, context: ScanContext())
            } throws: { error in
                (error as? SentinelError)?.message == "\(path): cannot read the ZAP API key file: not a regular file"
            }
        }
    }

    @Test(arguments: [
        ("ftp://127.0.0.1/", "ftp://127.0.0.1/: not an http or https URL"),
        ("http:///path", "http:///path: the URL has no host"),
        ("http://user:pw@127.0.0.1/", "http://user:pw@127.0.0.1/: credentials in the URL are not supported"),
        ("not a url", "not a url: not a URL"),
    ])
    func aBadTargetURLIsInvalidInput(url: String, message: String) {
        let scanner = ZAPScanner(targetURL: url, apiURL: "http://127.0.0.1:1", apiKeyFile: nil)
        #expect {
            _ = try scanner.scan(target, context: ScanContext())
        } throws: { error in
            (error as? SentinelError) == SentinelError(.invalidInput, message)
        }
    }

    @Test func anUnreachableZAPIsAToolFailureAndTheKeyStaysSecret() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        let url = server.apiURL
        server.stop()
        let (directory, file) = try Self.keyFile()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let scanner = ZAPScanner(targetURL: "http://127.0.0.1:8080/", apiURL: url, apiKeyFile: file)
        #expect {
            _ = try scanner.scan(target, context: ScanContext())
        } throws: { error in
            let error = error as? SentinelError
            return error?.code == .toolFailed && error?.message.hasPrefix("zap: cannot reach the ZAP API at \(url): ") == true
                && error?.message.contains(Self.key) == false
        }
    }

    @Test(arguments: [
        ("http://127.0.0.1:8080/app", "127.0.0.1:8080", "http://127.0.0.1:8080"),
        ("https://example.com", "example.com:443", "https://example.com"),
        ("http://[::1]:9000/x?y=1#frag", "[::1]:9000", "http://[::1]:9000"),
        // The one URL type keeps hosts lowercased (DNS names compare case-insensitively).
        ("HTTP://Example.com:80/", "example.com:80", "http://example.com"),
    ])
    func aWebTargetKnowsItsEgressEntryAndOrigin(url: String, entry: String, origin: String) throws {
        let web = try WebURL(target: url)
        #expect(web.egressEntry == entry)
        #expect(web.origin.description == origin)
        #expect(!web.string.contains("#"))
    }
}
