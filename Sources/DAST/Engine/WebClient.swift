import HTTP
import Support
import Synchronization
import Web

/// The scan's one way to send a request: scope is checked (nothing outside the target's
/// origin is ever sent), a budget slot is taken, the session's headers and cookies are added,
/// and the answer's cookies are kept. With a login (``WebLogin``), an answer that says the
/// session is gone makes it log in again and repeat the request. Counts what it sent.
public final class WebClient: Sendable {
    /// The origin requests may go to.
    public let scope: Scope
    /// Counts, paces and ends the scan's requests.
    public let budget: RequestBudget
    /// The session's cookies.
    public let cookies: CookieJar
    /// How the session logs in (nil: it does not).
    public let login: WebLogin?
    /// Paths never requested (``WebScanOptions/exclude``).
    public let excluded: [Glob]
    private let transport: any WebTransport
    private let sessionHeaders: [HTTPHeader]
    private let counters = Mutex<(errors: Int, truncated: Int, firstError: String?, throttled: Int)>((0, 0, nil, 0))
    /// Times one request is sent again after the target asked the scan to slow down.
    static let maxThrottleRetries = 3
    /// The longest pause a `Retry-After` gets (a longer one would stall the scan for nothing).
    static let maxThrottlePause = 30.0
    let loginState = Mutex(LoginState())
    /// The `Authorization` value an API login's token gives (its own lock: the login sends
    /// requests while it holds `loginState`'s).
    let tokenAuthorization = Mutex<String?>(nil)

    /// A client for `scope` over `transport`, adding `headers` to every request; `login` says how
    /// to log in (``logIn()`` does it first, the client again whenever the session ends).
    public init(
        scope: Scope, transport: any WebTransport, budget: RequestBudget, headers: [HTTPHeader] = [],
        cookies: CookieJar = CookieJar(), login: WebLogin? = nil, excluded: [Glob] = []
    ) {
        self.excluded = excluded
        self.scope = scope
        self.transport = transport
        self.budget = budget
        self.sessionHeaders = headers
        self.cookies = cookies
        self.login = login
    }

    /// Sends `request` with the session's headers and cookies (unless `withCookies` is false or
    /// the request sets its own `Cookie`). Throws `RequestBudget.Exhausted` when the budget is
    /// spent, `SentinelError(.invalidInput)` for a URL out of scope (a bug: callers check first),
    /// and `SentinelError(.network)` when the target did not answer.
    public func send(_ request: WebRequest, withCookies: Bool = true) throws -> WebResponse {
        let generation = loginState.withLock { $0.generation }
        let response = try sendOnce(request, withCookies: withCookies, session: login == nil ? nil : generation)
        // A request with a cookie of its own (a test of the cookie) is answered for that cookie.
        guard login != nil, withCookies, request.header("Cookie") == nil, endsSession(response, of: request) else { return response }
        guard try renewSession(seen: generation) else { return response }
        return try sendOnce(request, withCookies: withCookies, session: loginState.withLock { $0.generation })
    }

    /// ``send(_:withCookies:)`` without the login's renewal. With `session`, the login generation
    /// the request was sent in, cookies from the answer are kept only if no login came since: a
    /// late answer of an ended session must not overwrite the new session's cookie.
    func sendOnce(_ request: WebRequest, withCookies: Bool = true, session: Int? = nil) throws -> WebResponse {
        guard scope.contains(request.url) else {
            throw SentinelError(.invalidInput, "\(request.url): out of scope (\(scope.origin))")
        }
        guard !excludes(request.url) else { throw SentinelError(.invalidInput, "\(request.url): excluded") }
        var attempt = 0
        while true {
            let response = try sendPrepared(request, withCookies: withCookies, session: session)
            // 429 (or a 503 that says when to come back): every request waits, then this one again.
            guard attempt < Self.maxThrottleRetries,
                response.status == 429 || (response.status == 503 && response.header("Retry-After") != nil)
            else { return response }
            let asked = response.header("Retry-After").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            budget.pause(seconds: min(asked ?? Double(1 << attempt), Self.maxThrottlePause))
            counters.withLock { $0.throttled += 1 }
            attempt += 1
        }
    }

    /// One request with the session's headers and cookies, a budget slot taken first.
    private func sendPrepared(_ request: WebRequest, withCookies: Bool, session: Int?) throws -> WebResponse {
        try budget.acquire()
        var prepared = request
        for header in sessionHeaders where prepared.header(header.name) == nil {
            prepared.headers.append(header)
        }
        if withCookies, prepared.header("Cookie") == nil, let cookie = cookies.header {
            prepared.headers.append(HTTPHeader(name: "Cookie", value: cookie))
        }
        if login?.token != nil, prepared.header("Authorization") == nil, let authorization = tokenAuthorization.withLock({ $0 }) {
            prepared.headers.append(HTTPHeader(name: "Authorization", value: authorization))
        }
        // The answer to a request that brought its own cookie (a test of that cookie) speaks for
        // that cookie, not for the session: what it sets is not kept.
        let keepsCookies = withCookies && request.header("Cookie") == nil
        do {
            let response = try transport.send(prepared)
            if keepsCookies, session == nil || loginState.withLock({ $0.generation }) == session {
                cookies.store(from: response)
            }
            if response.truncated { counters.withLock { $0.truncated += 1 } }
            return response
        } catch let error as SentinelError {
            counters.withLock {
                $0.errors += 1
                $0.firstError = $0.firstError ?? error.message
            }
            throw error
        }
    }

    /// Whether `url`'s path matches an exclusion: it is never requested.
    public func excludes(_ url: WebURL) -> Bool {
        !excluded.isEmpty && excluded.contains { $0.matches(String(url.path.drop { $0 == "/" })) }
    }

    /// Requests that got no answer, responses cut at the size cap, the first failure's text, and
    /// answers that asked the scan to slow down.
    public var problems: (errors: Int, truncated: Int, firstError: String?, throttled: Int) { counters.withLock { $0 } }
}
