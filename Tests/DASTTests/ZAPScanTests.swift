import DAST
import Findings
import Foundation
import HTTP
import Support
import TestSupport
import Testing

/// `ZAPScan` against a fake ZAP API on 127.0.0.1: the calls a passive and an active run make,
/// polling, paging, the deadline, and every way the API can fail. Each test starts its own
/// server and stops it at the end. No test asserts how long anything took.
@Suite(.integration) struct ZAPScanTests {
    static let key = "zap-test-key-5f2b9c"
    static let target = "http://127.0.0.1:8080/"

    static func client(_ server: FakeZAPServer, key: String? = ZAPScanTests.key) throws -> ZAPClient {
        try ZAPClient(apiURL: server.apiURL, apiKey: key, requestTimeout: 120, connectTimeout: 60)
    }

    /// The deadline is far beyond any load's delay unless a test is about the deadline: a run
    /// cut short before it reaches the step a test breaks would pass that step silently (CI's
    /// loaded run took 114 s for eight of these).
    static func options(active: Bool = false, maxDuration: Double = 3600) -> ZAPScanOptions {
        ZAPScanOptions(targetURL: target, active: active, maxDuration: maxDuration, pollInterval: 0.01)
    }

    /// The `.toolFailed` message `body` throws.
    static func failure(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch let error as SentinelError {
            #expect(error.code == .toolFailed)
            #expect(!error.message.contains("\n"))
            #expect(!error.message.contains(key))
            return error.message
        } catch {
            Issue.record("unexpected error \(error)")
            return nil
        }
    }

    @Test func aPassiveRunSpidersThenReadsTheAlertsWithoutAttacking() throws {
        let server = try FakeZAPServer(apiKey: Self.key, alerts: [FakeZAPServer.alert()])
        defer { server.stop() }
        let result = try ZAPScan.run(Self.options(), client: Self.client(server), secret: Self.key)
        #expect(
            server.steps == [
                "core/view/version", "core/action/accessUrl", "spider/action/scan", "spider/view/status",
                "spider/view/status", "pscan/view/recordsToScan", "core/view/alerts",
            ])
        #expect(!server.steps.contains { $0.hasPrefix("ascan/") })
        #expect(server.calls.allSatisfy { $0.apiKey == Self.key })
        let spider = try #require(server.calls.first { $0.step == "spider/action/scan" })
        #expect(spider.parameters == ["url": Self.target, "maxChildren": "0", "recurse": "true", "subtreeOnly": "true"])
        #expect(server.calls.first { $0.step == "core/view/alerts" }?.parameters["baseurl"] == Self.target)
        #expect(result.version == "2.15.0")
        #expect(result.completed)
        #expect(result.notices.isEmpty)
        #expect(result.findings.map(\.ruleId) == ["zap.10038"])
        #expect(result.rules.map(\.id) == ["zap.10038"])
        // The key travels in the header only, never in a URL.
        #expect(server.requests.allSatisfy { !$0.path.contains(Self.key) && $0.headers["x-zap-api-key"] == Self.key })
    }

    @Test func anActiveRunStartsTheActiveScannerAfterTheSpider() throws {
        let server = try FakeZAPServer(apiKey: Self.key, activeProgress: [10, 55, 100])
        defer { server.stop() }
        let result = try ZAPScan.run(Self.options(active: true), client: Self.client(server), secret: Self.key)
        #expect(result.completed)
        let steps = server.steps
        let spider = try #require(steps.firstIndex(of: "spider/action/scan"))
        let active = try #require(steps.firstIndex(of: "ascan/action/scan"))
        #expect(spider < active)
        #expect(steps.filter { $0 == "ascan/view/status" }.count == 3)
        let call = try #require(server.calls.first { $0.step == "ascan/action/scan" })
        #expect(call.parameters == ["url": Self.target, "recurse": "true", "inScopeOnly": "false"])
        // The status polls name the scan ids ZAP gave (the spider was 0, the active scan 1).
        #expect(server.calls.filter { $0.step == "ascan/view/status" }.allSatisfy { $0.parameters["scanId"] == "1" })
        #expect(server.calls.filter { $0.step == "spider/view/status" }.allSatisfy { $0.parameters["scanId"] == "0" })
    }

    @Test func theSpiderIsPolledUntilItReports100AndThePassiveScannerUntilItIsDone() throws {
        let server = try FakeZAPServer(apiKey: Self.key, spiderProgress: [0, 20, 60, 100], passiveRecords: [12, 3, 0])
        defer { server.stop() }
        _ = try ZAPScan.run(Self.options(), client: Self.client(server), secret: Self.key)
        #expect(server.steps.filter { $0 == "spider/view/status" }.count == 4)
        #expect(server.steps.filter { $0 == "pscan/view/recordsToScan" }.count == 3)
        #expect(!server.steps.contains("spider/action/stop"))
    }

    @Test func alertsAreReadPageByPage() throws {
        let alerts = (0..<7).map { FakeZAPServer.alert(["url": "\(Self.target)page\($0)", "messageId": "\($0)"]) }
        let server = try FakeZAPServer(apiKey: Self.key, alerts: alerts)
        defer { server.stop() }
        var options = Self.options()
        options.alertPageSize = 3
        let result = try ZAPScan.run(options, client: Self.client(server), secret: Self.key)
        let pages = server.calls.filter { $0.step == "core/view/alerts" }.map { [$0.parameters["start"], $0.parameters["count"]] }
        #expect(pages == [["0", "3"], ["3", "3"], ["6", "3"]])
        #expect(result.findings.map(\.location.url) == (0..<7).map { "\(Self.target)page\($0)" })
        #expect(result.notices.isEmpty)
    }

    @Test func alertsBeyondTheLimitAreLeftWithANotice() throws {
        let alerts = (0..<5).map { FakeZAPServer.alert(["url": "\(Self.target)page\($0)"]) }
        let server = try FakeZAPServer(apiKey: Self.key, alerts: alerts)
        defer { server.stop() }
        var options = Self.options()
        options.alertPageSize = 2
        options.maxAlerts = 4
        let result = try ZAPScan.run(options, client: Self.client(server), secret: Self.key)
        #expect(result.findings.count == 4)
        #expect(result.notices.map(\.message) == ["zap: more than 4 alerts; the rest were not read"])
    }

    @Test func falsePositivesAndBrokenAlertsAreCountedInNotices() throws {
        let server = try FakeZAPServer(
            apiKey: Self.key,
            alerts: [
                FakeZAPServer.alert(["confidence": "False Positive"]), FakeZAPServer.alert(),
                FakeZAPServer.alert(["pluginId": ""]),
            ])
        defer { server.stop() }
        let result = try ZAPScan.run(Self.options(), client: Self.client(server), secret: Self.key)
        #expect(result.findings.count == 1)
        #expect(
            result.notices.map(\.message) == [
                "zap: 1 alert(s) marked False Positive were dropped",
                "zap: 1 alert(s) without a pluginId or url were skipped",
            ])
    }

    @Test func theDeadlineStopsTheSpiderAndReportsWhatWasFound() throws {
        let server = try FakeZAPServer(apiKey: Self.key, alerts: [FakeZAPServer.alert()], spiderProgress: [40])
        defer { server.stop() }
        let result = try ZAPScan.run(
            Self.options(active: true, maxDuration: 0.2), client: Self.client(server), secret: Self.key)
        #expect(!result.completed)
        let stop = try #require(server.calls.first { $0.step == "spider/action/stop" })
        #expect(stop.parameters == ["scanId": "0"])
        #expect(!server.steps.contains { $0.hasPrefix("ascan/") })
        #expect(server.steps.last == "core/view/alerts")
        #expect(result.findings.count == 1)
        #expect(
            result.notices.map(\.message) == [
                "zap: the scan was cut short at its 0.2 s deadline (spider at 40%); the findings are what ZAP had found by then"
            ])
    }

    @Test func theDeadlineStopsTheActiveScan() throws {
        let server = try FakeZAPServer(apiKey: Self.key, spiderProgress: [100], activeProgress: [7])
        defer { server.stop() }
        let result = try ZAPScan.run(
            Self.options(active: true, maxDuration: 0.3), client: Self.client(server), secret: Self.key)
        #expect(!result.completed)
        #expect(server.calls.first { $0.step == "ascan/action/stop" }?.parameters == ["scanId": "1"])
        #expect(!server.steps.contains("spider/action/stop"))
        #expect(result.notices.first?.message.contains("(active scan at 7%)") == true)
    }

    @Test func aWrongKeyIsNamedAsSuch() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        let message = Self.failure {
            _ = try ZAPScan.run(Self.options(), client: Self.client(server, key: "wrong-key"), secret: "wrong-key")
        }
        #expect(
            message == "zap: the ZAP API at \(server.apiURL) rejected the API key (bad_api_key): check the key file")
        #expect(server.steps == ["core/view/version"])
    }

    @Test func aMissingKeyIsNamedAsSuch() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        let message = Self.failure { _ = try ZAPScan.run(Self.options(), client: Self.client(server, key: nil)) }
        #expect(
            message
                == "zap: the ZAP API at \(server.apiURL) rejected the API key (bad_api_key): ZAP requires one: give the key file")
        #expect(server.requests.first?.headers["x-zap-api-key"] == nil)
    }

    @Test func aForbiddenAnswerWithoutJSONSaysWhatToCheck() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        server.override(
            "core/view/version", with: LoopbackHTTPServer.Response(status: 403, body: Array("<html>Forbidden</html>".utf8)))
        let message = Self.failure { _ = try ZAPScan.run(Self.options(), client: Self.client(server)) }
        #expect(
            message
                == "zap: the ZAP API at \(server.apiURL) refused core/view/version (HTTP 403): check the API key and the addresses ZAP permits"
        )
    }

    @Test func anUnreachableAPIIsAToolFailureNamingIt() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        let url = server.apiURL
        server.stop()
        let message = try #require(Self.failure { _ = try ZAPScan.run(Self.options(), client: Self.client(server)) })
        #expect(message.hasPrefix("zap: cannot reach the ZAP API at \(url): "))
        #expect(!message.contains("/JSON/"))
    }

    @Test(arguments: [
        (
            "spider/action/scan", FakeZAPServer.json(#"{"code":"url_not_found","message":"URL Not Found in the Scan Tree"}"#, status: 400),
            "zap: spider/action/scan failed: url_not_found (URL Not Found in the Scan Tree)"
        ),
        (
            "core/view/version", FakeZAPServer.json("<html>not json", status: 200),
            "zap: core/view/version: the ZAP API at API answered with something other than a JSON object (14 bytes)"
        ),
        (
            "spider/view/status", FakeZAPServer.json("[1, 2]"),
            "zap: spider/view/status: the ZAP API at API answered with something other than a JSON object (6 bytes)"
        ),
        ("spider/view/status", FakeZAPServer.json(#"{"status":"lots"}"#), "zap: spider/view/status: the answer has no 'status' field"),
        ("spider/action/scan", FakeZAPServer.json(#"{"scan":"../1"}"#), "zap: spider/action/scan: the answer has no 'scan' field"),
        ("core/view/alerts", FakeZAPServer.json(#"{"alerts":{}}"#), "zap: core/view/alerts: the answer has no 'alerts' field"),
        (
            "core/view/alerts", LoopbackHTTPServer.Response(status: 500, body: Array("boom".utf8)),
            "zap: core/view/alerts failed: the ZAP API at API answered HTTP 500"
        ),
        (
            "ascan/action/scan", FakeZAPServer.json(#"{"code":"internal_error","message":"  it\nbroke \u001b[0m"}"#, status: 500),
            "zap: ascan/action/scan failed: internal_error (it broke [0m)"
        ),
    ])
    func aBrokenAnswerNamesTheStep(step: String, response: LoopbackHTTPServer.Response, expected: String) throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        server.override(step, with: response)
        let message = Self.failure { _ = try ZAPScan.run(Self.options(active: true), client: Self.client(server)) }
        #expect(message == expected.replacingOccurrences(of: "at API", with: "at \(server.apiURL)"))
    }

    @Test func aFailedAccessIsANoticeAndTheScanGoesOn() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        server.override(
            "core/action/accessUrl", with: FakeZAPServer.json(#"{"code":"illegal_parameter","message":"bad url"}"#, status: 400))
        let result = try ZAPScan.run(Self.options(), client: Self.client(server))
        #expect(result.notices.map(\.message) == ["zap: core/action/accessUrl failed: illegal_parameter (bad url)"])
        #expect(server.steps.contains("spider/action/scan"))
    }

    @Test func aHugeAnswerIsRefused() throws {
        let server = try FakeZAPServer(apiKey: Self.key)
        defer { server.stop() }
        server.override("core/view/version", with: FakeZAPServer.json(#"{"version":"\#(String(repeating: "9", count: 5000))"}"#))
        var client = try Self.client(server)
        client.maxResponseBytes = 1024
        let message = Self.failure { _ = try ZAPScan.run(Self.options(), client: client) }
        #expect(message == "zap: core/view/version: the ZAP API at \(server.apiURL) sent an answer larger than 1024 bytes")
    }

    @Test func theKeyNeverAppearsInErrorsNoticesFindingsOrDescriptions() throws {
        let key = Self.key
        let server = try FakeZAPServer(
            apiKey: key,
            alerts: [
                FakeZAPServer.alert([
                    "name": "echo \(key)", "evidence": "key=\(key)", "solution": key, "url": "\(Self.target)?k=\(key)",
                    "description": "has \(key)", "param": key,
                ])
            ])
        defer { server.stop() }
        server.override(
            "core/action/accessUrl", with: FakeZAPServer.json(#"{"code":"x","message":"your key is \#(key)"}"#, status: 400))
        let client = try Self.client(server)
        let result = try ZAPScan.run(Self.options(), client: client, secret: key)
        let encoder = JSONEncoder()
        let texts =
            [String(describing: client), String(reflecting: client)]
            + result.notices.map(\.message)
            + [String(decoding: try encoder.encode(result.findings), as: UTF8.self)]
            + [String(decoding: try encoder.encode(result.rules), as: UTF8.self)]
        var dumped = ""
        dump(client, to: &dumped)
        for text in texts + [dumped] {
            #expect(!text.contains(key))
        }
        #expect(result.notices.first?.message == "zap: core/action/accessUrl failed: x (your key is [redacted])")
        // An error while the key is set: the server echoes it in its message.
        server.override("spider/action/scan", with: FakeZAPServer.json(#"{"code":"x","message":"\#(key)"}"#, status: 400))
        #expect(
            Self.failure { _ = try ZAPScan.run(Self.options(), client: client, secret: key) }
                == "zap: spider/action/scan failed: x ([redacted])")
    }

    @Test func aBadAPIURLIsInvalidInput() throws {
        for url in ["ftp://127.0.0.1:8090", "http://", "http://127.0.0.1:8090/?apikey=1", "not a url", "http://u:p@host:1"] {
            #expect(throws: SentinelError.self) { _ = try ZAPClient(apiURL: url, apiKey: nil) }
            #expect((try? ZAPClient(apiURL: url, apiKey: nil)) == nil)
        }
        #expect(try ZAPClient(apiURL: "http://127.0.0.1:8090///", apiKey: nil).apiURL == "http://127.0.0.1:8090")
    }
}
