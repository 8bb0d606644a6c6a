import DAST
import HTTP
import Testing
import Web

/// The passive checks that read pages: forms without an anti-CSRF token, framework debug pages.
struct PassiveFormChecksTests {
    static func exchange(_ html: String, path: String = "/account", status: Int = 200) throws -> Exchange {
        let url = try #require(WebURL("http://127.0.0.1:8000" + path))
        let response = WebResponse(
            status: status, headers: [HTTPHeader(name: "Content-Type", value: "text/html; charset=utf-8")], body: Array(html.utf8))
        return Exchange(request: WebRequest(url: url), response: response)
    }

    @Test func aPostFormWithoutATokenIsReportedOncePerAction() throws {
        let sink = FindingSink()
        let page = """
            <form method="post" action="/account/email"><input name="email"><input type="submit" value="Save"></form>
            <form method="post" action="/account/email?x=1"><input name="email"></form>
            <form method="post" action="/login"><input type="hidden" name="csrfmiddlewaretoken" value="t"><input name="u"></form>
            <form method="post" action="/notes"><input type="hidden" name="_token" value="t"><textarea name="n"></textarea></form>
            <form method="get" action="/search"><input name="q"></form>
            <form method="post" action="/ping"><input type="submit" value="Ping"></form>
            """
        CSRFTokenCheck().inspect(try Self.exchange(page), into: sink)
        CSRFTokenCheck().inspect(try Self.exchange(page, path: "/other"), into: sink)
        #expect(sink.findings.map(\.ruleId) == ["dast.csrf-token-missing"])
        let finding = try #require(sink.findings.first)
        #expect(finding.location.url == "http://127.0.0.1:8000/account/email" && finding.location.method == "POST")
        #expect(finding.cwe == [352] && finding.confidence == .medium)
        #expect(finding.message == "The form on /account posting to /account/email (email) carries no anti-CSRF token")
    }

    @Test func aDebugPageIsDebugModeNotAlsoAStackTrace() throws {
        let sink = FindingSink()
        let werkzeug = "<title>ZeroDivisionError // Werkzeug Debugger</title><pre>Traceback (most recent call last):</pre>"
        ErrorDisclosureCheck().inspect(try Self.exchange(werkzeug, path: "/crash", status: 500), into: sink)
        ErrorDisclosureCheck().inspect(try Self.exchange("<pre>Traceback (most recent call last):\n</pre>", path: "/other"), into: sink)
        #expect(sink.findings.map(\.ruleId).sorted() == ["dast.debug-mode", "dast.stack-trace"])
        #expect(sink.findings.first { $0.ruleId == "dast.debug-mode" }?.cwe == [215, 489])
        #expect(sink.findings.first { $0.ruleId == "dast.debug-mode" }?.location.url == "http://127.0.0.1:8000/crash")
    }

    /// Cookie flags: a session's cookie is reported at the rule's confidence, a preference's at
    /// low, and a double-submit CSRF cookie (meant for scripts) is not asked for HttpOnly.
    @Test func cookieFlagsWeighWhatTheCookieGrants() throws {
        let sink = FindingSink()
        let url = try #require(WebURL("http://127.0.0.1:8000/"))
        let headers = [
            "sessionid=abc; Path=/", "theme=dark; Path=/", "csrftoken=Zx81kq0P2m; Path=/; SameSite=Lax",
            "cart=8f14e45fceea167a5a36dedd4bea2543; Path=/",
        ].map { HTTPHeader(name: "Set-Cookie", value: $0) }
        CookieFlagsCheck().inspect(
            Exchange(request: WebRequest(url: url), response: WebResponse(status: 200, headers: headers, body: [])), into: sink)
        let httpOnly = sink.findings.filter { $0.ruleId == "dast.cookie-no-httponly" }
        #expect(httpOnly.map { "\($0.location.parameter ?? "") \($0.confidence)" } == ["sessionid high", "theme low", "cart high"])
    }
}
