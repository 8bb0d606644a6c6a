import Support

/// The login's state, shared by the scan's threads: which session is current and how often it
/// was renewed.
struct LoginState: Sendable {
    /// Counts the logins; a request that saw the session end renews it only when no other
    /// thread has done so since the request was sent.
    var generation = 0
    /// Logins after the first.
    var renewals = 0
    /// The login page and the form's action: answers to these say nothing about the session
    /// (an injection into the login form is answered with the form again).
    var loginURLs: [WebURL] = []
    /// Why the last renewal failed, if it did.
    var failure: String?
    /// Where the first login landed (after its redirects): the crawl starts there too.
    var landing: WebURL?
}

extension WebClient {
    /// Logs in as ``login`` says, `start` (the target) resolving its URL. Throws
    /// `SentinelError(.toolFailed)` naming the login page and the reason when it does not succeed.
    public func logIn(start: WebURL) throws {
        guard let login else { return }
        guard let page = start.resolving(login.url), scope.contains(page) else {
            throw SentinelError(.invalidInput, "login: '\(login.url)' is not a page of \(scope.origin)")
        }
        try loginState.withLock { state in
            try Self.perform(login, page: page, client: self, state: &state)
        }
    }

    /// Logins and renewals so far (0 without a login).
    public var logins: (count: Int, renewals: Int, failure: String?) {
        loginState.withLock { ($0.generation, $0.renewals, $0.failure) }
    }

    /// The page the first login landed on (nil without a login).
    public var loginLanding: WebURL? { loginState.withLock { $0.landing } }

    /// Whether `response` says nobody is logged in: a redirect to the login page, a 401, or the
    /// login's logged-out text on a page other than the login's own.
    func endsSession(_ response: WebResponse, of request: WebRequest) -> Bool {
        guard let login else { return false }
        let pages = loginState.withLock { $0.loginURLs }
        guard !pages.contains(where: { $0.path == request.url.path }) else { return false }
        if response.status == 401 { return true }
        if response.isRedirect, let location = response.header("Location"), let target = request.url.resolving(location),
            pages.contains(where: { $0.path == target.path })
        {
            return true
        }
        if let text = login.loggedOutText, !text.isEmpty, response.text.contains(text) { return true }
        return false
    }

    /// Logs in again after an answer sent in session `seen` said the session had ended: once per
    /// session (the threads that saw the same end wait for one login), at most
    /// ``WebLogin/maxRenewals`` times. Returns whether a fresh session is there to repeat the
    /// request in.
    func renewSession(seen: Int) throws -> Bool {
        guard let login else { return false }
        return try loginState.withLock { state in
            if state.generation != seen { return true }
            guard state.renewals < WebLogin.maxRenewals, state.failure == nil, let page = state.loginURLs.first else {
                return false
            }
            state.renewals += 1
            do {
                try Self.perform(login, page: page, client: self, state: &state)
                return true
            } catch let error as SentinelError where error.code == .toolFailed {
                state.failure = error.message
                return false
            }
        }
    }

    /// Fetches the login page, submits its form filled from `login`, follows the redirects and
    /// checks the outcome.
    private static func perform(_ login: WebLogin, page: WebURL, client: WebClient, state: inout LoginState) throws {
        let fail = { (reason: String) in SentinelError(.toolFailed, "login at \(page.pathAndQuery) failed: \(reason)") }
        let (formPage, formAnswer) = try follow(WebRequest(url: page), client: client)
        let document = HTMLDocument.parse(formAnswer.text, url: formPage)
        let names = Set(login.fields.keys)
        guard
            let form = document.forms.first(where: { form in names.isSubset(of: Set(form.fields.map(\.name))) })
                ?? document.forms.first(where: { $0.fields.contains { $0.kind == .password } })
        else {
            throw fail("no login form at \(formPage.pathAndQuery) (status \(formAnswer.status))")
        }
        guard client.scope.contains(form.action) else { throw fail("the form submits to \(form.action), off the target") }
        var pairs = form.submission()
        for (name, value) in login.fields.sorted(by: { $0.key < $1.key }) {
            if let index = pairs.firstIndex(where: { $0.name == name }) {
                pairs[index].value = value
            } else {
                pairs.append((name, value))
            }
        }
        var request: WebRequest
        if form.method == "POST" {
            request = WebRequest(method: "POST", url: form.action)
            request.setHeader("Content-Type", HTMLForm.urlEncoded)
            request.body = Array(FormEncoding.encode(pairs).utf8)
        } else {
            request = WebRequest(url: form.action.withQuery(pairs))
        }
        request.setHeader("Referer", formPage.string)
        state.loginURLs = [page, formPage, form.action]
        let (landing, answer) = try follow(request, client: client)
        if let expected = login.loggedInText, !expected.isEmpty {
            guard answer.text.contains(expected) else {
                throw fail("the answer (\(landing.pathAndQuery), status \(answer.status)) does not show '\(expected)'")
            }
        } else {
            if let text = login.loggedOutText, !text.isEmpty, answer.text.contains(text) {
                throw fail("the answer (\(landing.pathAndQuery)) still shows '\(text)'")
            }
            let again = HTMLDocument.parse(answer.text, url: landing).forms.contains { $0.fields.contains { $0.kind == .password } }
            guard answer.status < 400, !again else {
                throw fail("the answer (\(landing.pathAndQuery), status \(answer.status)) is the login form again")
            }
        }
        state.generation += 1
        state.failure = nil
        state.landing = state.landing ?? landing
    }

    /// Sends `request` and follows in-scope redirects (as GETs), at most ``WebLogin/maxRedirects``;
    /// returns the last URL and its answer.
    private static func follow(_ request: WebRequest, client: WebClient) throws -> (WebURL, WebResponse) {
        var url = request.url
        var answer = try client.sendOnce(request)
        for _ in 0..<WebLogin.maxRedirects {
            guard answer.isRedirect, let location = answer.header("Location"), let next = url.resolving(location),
                client.scope.contains(next)
            else { break }
            url = next
            answer = try client.sendOnce(WebRequest(url: next))
        }
        return (url, answer)
    }
}
