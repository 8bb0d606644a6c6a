import Support
import Testing

@testable import Fleet

/// What one `--dast-target` entry allows: the host as the URL names it, a port when given, a
/// domain's subdomains for `*.domain`; nothing is resolved.
struct DASTTargetAllowListTests {
    @Test(
        "entries match host, port and subdomains as written",
        arguments: [
            ("app.example", "http://app.example:8080/", true), ("app.example:443", "https://APP.example/x", true),
            ("app.example:443", "http://app.example/", false), ("*.internal.example", "http://a.b.internal.example/", true),
            ("*.internal.example", "http://internal.example/", false), ("*.internal.example", "http://evilinternal.example/", false),
            ("[::1]:8080", "http://[::1]:8080/", true), ("127.0.0.1", "http://127.0.0.1.nip.io/", false),
            ("127.0.0.1", "http://127.0.0.1:9/", true),
        ])
    func entries(entry: String, target: String, allowed: Bool) {
        let list = DASTTargetAllowList([entry])
        #expect(((try? list.check(target, worker: "w")) != nil) == allowed, "\(entry) \(target)")
    }

    @Test("without a list no target is allowed; a URL that is not http(s) never is")
    func failsClosed() {
        #expect(throws: SentinelError.self) { try DASTTargetAllowList([]).check("http://app.example/", worker: "w") }
        #expect(throws: SentinelError.self) { try DASTTargetAllowList(["app.example"]).check("file:///etc/passwd", worker: "w") }
    }
}
