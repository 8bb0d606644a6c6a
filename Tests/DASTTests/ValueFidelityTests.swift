import Findings
import Foundation
import Support
import TestSupport
import Testing
import Web

@testable import DAST

/// How values travel and how often one fact is said (issue 59), on `fidelityapp.py`: a handler
/// that decodes only `%XX`, a link whose value is bytes that are not UTF-8, a page under any path
/// with relative links, and a CORS policy and a debug mode that are the application's, not a page's.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct ValueFidelityTests {
    /// An active scan of a fresh `fidelityapp.py`, and what the app says it received.
    static func scan() throws -> (result: WebScanResult, seen: [String: [String]]) {
        let app = try VulnerableApp(script: "fidelityapp.py")
        defer { app.stop() }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 5
        let result = try WebScan(options: options).run()
        let transport = CurlTransport(timeout: 10, connectTimeout: 5, maxBodyBytes: 1 << 20)
        let seen = try transport.send(WebRequest(url: try #require(WebURL(app.url + "seen"))))
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(seen.body)) as? [String: [String]])
        return (result, decoded)
    }

    @Test("spaces travel as %20 and unchanged values byte for byte; an app-wide fact is one finding; a relative-link loop is not followed")
    func valuesTravelAsGivenAndFactsAreSaidOnce() throws {
        let (result, seen) = try Self.scan()
        #expect(result.fatal == nil)
        func findings(_ rule: String) -> [Finding] { result.findings.filter { $0.ruleId == "dast." + rule } }

        // A server that decodes only %XX: the boolean probes keep their spaces, the twin stays clean.
        // A sign-in form that shows the database error as a template escapes it (near &quot;y&quot;).
        let sqli = findings("sqli")
        #expect(Set(sqli.compactMap { $0.location.url.flatMap(WebURL.init)?.path }) == ["/item", "/login"], "\(sqli.map(\.location))")
        #expect(sqli.first { $0.location.url?.hasSuffix("/item") == true }?.location.parameter == "id")
        let signIn = sqli.filter { $0.location.url?.hasSuffix("/login") == true }
        #expect(!signIn.isEmpty && signIn.allSatisfy { $0.facts.web.technique == .error && $0.evidence?.contains("&quot;") == false })

        // JSONP served as text/plain runs from a <script src> all the same; not with nosniff.
        #expect(
            findings("xss-jsonp-callback").map { "\($0.location.url.flatMap(WebURL.init)?.path ?? "") \($0.location.parameter ?? "")" } == [
                "/widget.js cb"
            ])

        // A GET that stores: its plain probe showed on the entries page, markup followed; not the twin.
        let stored = findings("xss-stored")
        #expect(
            stored.map { "\($0.location.url.flatMap(WebURL.init)?.path ?? "") \($0.location.parameter ?? "")" } == ["/guestbook comment"])
        #expect(stored.first?.facts.web.shownAt?.hasSuffix("/guestbook/entries") == true)

        // An eval whose result is thrown away shows only time; not the twin's literal_eval.
        let evaluated = findings("code-injection")
        #expect(evaluated.map { "\($0.location.url.flatMap(WebURL.init)?.path ?? "") \($0.location.parameter ?? "")" } == ["/calc expr"])
        #expect(evaluated.first?.facts.web.technique == .time)

        // The linked token came back as its bytes (never U+FFFD's): the crawl's request and every
        // request that did not change it.
        let token = "800495" + "4b2b2041"
        let tokens = seen["tokens"] ?? []
        #expect(tokens.contains(token), "\(tokens)")
        #expect(!tokens.contains { $0.contains("efbfbd") }, "\(tokens)")

        // One CORS finding and one debug-mode finding for the application, each naming its URLs.
        let cors = findings("cors-origin-reflected")
        #expect(cors.count == 1, "\(cors.map(\.location))")
        #expect(cors.first?.evidence?.contains("Seen on ") == true)
        // The debug mode shows on a page the app serves (its sign-in error) and on every not-found
        // page; the page it serves stands for it.
        let debug = findings("debug-mode")
        #expect(debug.count == 1 && debug.first?.location.url.flatMap(WebURL.init)?.path == "/login", "\(debug.map(\.location))")

        // The page under any path was fetched below /app/, but never down its own relative links'
        // loop (`/app/static/js/static/js/`).
        let paths = seen["app_paths"] ?? []
        #expect(paths.contains("/app/") && paths.contains("/app/static/js/"), "\(paths)")
        #expect(!paths.contains { $0.contains("static/js/static/js") }, "\(paths)")
    }

    @Test(
        "a path whose segments repeat back to back is a loop; one that only shares names is not",
        arguments: [
            ("/app/static/js/static/js/", true), ("/x/x/x", true), ("/a/b/c/a/b/c/d", true), ("/docs/docs/", false),
            ("/a/static/js/app.js", false), ("/api/v1/users/1/posts/1", false), ("/", false),
        ])
    func repeatingPaths(path: String, loops: Bool) {
        #expect(CrawlLimits.repeatsItself(path) == loops)
    }
}
