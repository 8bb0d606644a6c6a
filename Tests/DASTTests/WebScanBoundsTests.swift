#if canImport(Glibc)
    import Glibc
#endif
import DAST
import Foundation
import Support
import TestSupport
import Testing

/// Budgets end a scan with what it found and say why; bad targets get a one-line reason and a
/// bounded scan, never a hang or a crash.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct WebScanBoundsTests {
    @Test func theRequestBudgetEndsTheScan() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.maxRequests = 40
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(transport.requests.count == 40)
        #expect(result.requests == 40)
        #expect(result.stoppedBy == "request budget (40 requests)")
    }

    @Test func theTimeLimitEndsTheScan() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.maxDuration = 2
        let result = try WebScan(options: options, transport: RecordingTransport()).run()
        #expect(result.stoppedBy == "time limit (2 s)")
        #expect(result.fatal == nil)
    }

    @Test func aTargetThatHangsFailsWithTheTimeout() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        var options = WebScanOptions(target: app.url + "hang")
        options.requestTimeout = 1
        let result = try WebScan(options: options).run()
        let fatal = try #require(result.fatal)
        #expect(fatal.hasPrefix("\(app.url)hang: the target did not answer: "))
        #expect(fatal.contains("imed out"))
    }

    @Test(arguments: ["huge", "huge-chunked"])
    func aHundredMegabyteAnswerIsCutAndReported(path: String) throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        var options = WebScanOptions(target: app.url + path)
        options.maxResponseBytes = 1 << 20
        let result = try WebScan(options: options).run()
        #expect(result.fatal == nil)
        #expect(result.notices.contains { $0.contains("were larger than 1048576 bytes and were cut") })
    }

    @Test func anUnreachablePortFailsWithTheConnectionError() throws {
        let port = try Self.closedPort()
        let result = try WebScan(options: WebScanOptions(target: "http://127.0.0.1:\(port)/")).run()
        let fatal = try #require(result.fatal)
        #expect(fatal.hasPrefix("http://127.0.0.1:\(port)/: the target did not answer: "))
        #expect(result.requests == 1)
    }

    @Test func aPortThatDoesNotSpeakHTTPFailsClearly() throws {
        let server = try BannerServer(banner: "SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n")
        defer { server.stop() }
        let result = try WebScan(options: WebScanOptions(target: "http://127.0.0.1:\(server.port)/")).run()
        let fatal = try #require(result.fatal)
        #expect(fatal.hasPrefix("http://127.0.0.1:\(server.port)/: the target did not answer: "))
    }

    @Test(arguments: [
        (
            "http://user:secret@127.0.0.1:1/",
            "--dast: the URL holds credentials; pass them with --header 'Authorization: ...' so they stay out of reports"
        ),
        ("http://127.0.0.1:1/#top", "--dast: 'http://127.0.0.1:1/#top' has a fragment (#...), which never reaches the server; remove it"),
        ("ftp://127.0.0.1/", "--dast: 'ftp://127.0.0.1/' is not an http:// or https:// URL"),
        ("http://127.0.0.1:99999/", "--dast: 'http://127.0.0.1:99999/' is not a valid URL"),
    ])
    func badTargetURLsAreRefused(url: String, message: String) {
        #expect(throws: SentinelError(.invalidInput, message)) { try WebScan(options: WebScanOptions(target: url)).run() }
    }

    @Test func badHeadersAreRefusedWithoutEchoingThem() {
        #expect(throws: SentinelError(.invalidInput, "--header: an entry is not 'Name: value'")) {
            try WebTarget.headers(["Bearer secret-token"])
        }
    }

    /// A port nothing listens on: bound, then closed.
    static func closedPort() throws -> Int {
        let server = try BannerServer(banner: "")
        let port = server.port
        server.stop()
        return port
    }
}
