@testable import DAST
@testable import Web
import HTTP
import Testing

/// Cookies, scope and the request budget.
struct SessionTests {
    @Test func setCookieAttributesAreRead() throws {
        let cookie = try #require(SetCookie("session=abc; Path=/; HttpOnly; SameSite=Lax; Max-Age=60"))
        #expect(cookie.name == "session" && cookie.value == "abc")
        #expect(cookie.flags.contains("httponly") && !cookie.flags.contains("secure"))
        #expect(cookie.sameSite == "lax" && cookie.maxAge == 60)
        #expect(SetCookie("=novalue") == nil)
        #expect(SetCookie("flag") == nil)
    }

    @Test func theJarKeepsSetsAndClearsCookies() {
        let jar = CookieJar()
        jar.store(from: WebResponse(status: 200, headers: [HTTPHeader(name: "Set-Cookie", value: "a=1; Path=/")]))
        jar.store(from: WebResponse(status: 200, headers: [HTTPHeader(name: "set-cookie", value: "b=2")]))
        #expect(jar.header == "a=1; b=2")
        jar.store(from: WebResponse(status: 200, headers: [HTTPHeader(name: "Set-Cookie", value: "a=; Max-Age=0")]))
        #expect(jar.header == "b=2")
        for index in 0..<200 { jar.set("c\(index)", "v") }
        #expect(jar.all.count == CookieJar.capacity)
    }

    @Test func scopeIsTheTargetsOrigin() throws {
        let scope = Scope(target: try #require(WebURL("http://127.0.0.1:8080/app/")))
        #expect(scope.contains(try #require(WebURL("http://127.0.0.1:8080/other?x=1"))))
        #expect(!scope.contains(try #require(WebURL("http://localhost:8080/"))))
        #expect(!scope.contains(try #require(WebURL("http://127.0.0.1:8081/"))))
        #expect(!scope.contains(try #require(WebURL("https://127.0.0.1:8080/"))))
        #expect(scope.egressEntry == "127.0.0.1:8080")
    }

    @Test func theClientRefusesAnythingOutOfScope() throws {
        let transport = RecordingTransport()
        let client = WebClient(
            scope: Scope(target: try #require(WebURL("http://127.0.0.1:1/"))), transport: transport,
            budget: RequestBudget(maxRequests: 10, ratePerSecond: 0, maxDuration: 600))
        #expect(throws: (any Error).self) { try client.send(WebRequest(url: try #require(WebURL("http://example.com/")))) }
        #expect(transport.requests.isEmpty)
        #expect(client.budget.sent == 0)
    }

    @Test func theBudgetCountsAndStops() {
        let budget = RequestBudget(maxRequests: 3, ratePerSecond: 0, maxDuration: 600)
        for _ in 0..<3 { #expect(throws: Never.self) { try budget.acquire() } }
        #expect(throws: RequestBudget.Exhausted.requests(3)) { try budget.acquire() }
        let expired = RequestBudget(maxRequests: 3, ratePerSecond: 0, maxDuration: 0)
        #expect(throws: RequestBudget.Exhausted.duration(0)) { try expired.acquire() }
    }
}
