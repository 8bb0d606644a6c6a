import Documents
import Foundation
import Support
import Web

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

    /// Logs in (the form, or the API's JSON), checks the outcome and takes the token; the new
    /// session is then current.
    private static func perform(_ login: WebLogin, page: WebURL, client: WebClient, state: inout LoginState) throws {
        let fail = { (reason: String) in SentinelError(.toolFailed, "login at \(page.pathAndQuery) failed: \(reason)") }
        let (landing, answer) =
            login.format == .json
            ? try submitJSON(login, url: page, client: client, state: &state, fail: fail)
            : try submitForm(login, page: page, client: client, state: &state, fail: fail)
        try takeToken(login, from: answer, client: client, fail: fail)
        state.generation += 1
        state.failure = nil
        state.landing = state.landing ?? landing
    }

    /// Fetches the login page, submits its form filled from `login` and follows the redirects;
    /// returns where it landed and the answer there, once it shows a successful login.
    private static func submitForm(
        _ login: WebLogin, page: WebURL, client: WebClient, state: inout LoginState, fail: (String) -> SentinelError
    ) throws -> (WebURL?, WebResponse) {
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
        return (landing, answer)
    }

    /// An API login: `fields` as a JSON object posted to `url`; the answer must be a success
    /// (and show `loggedInText` when it is given). It lands nowhere a crawl could start.
    private static func submitJSON(
        _ login: WebLogin, url: WebURL, client: WebClient, state: inout LoginState, fail: (String) -> SentinelError
    ) throws -> (WebURL?, WebResponse) {
        let object = DocumentNode.object(login.fields.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
        var request = WebRequest(method: "POST", url: url, body: JSONWriter.bytes(object, sortKeys: true))
        request.setHeader("Content-Type", "application/json")
        request.setHeader("Accept", "application/json")
        state.loginURLs = [url]
        // Without the previous session's token: a stale one may be refused before the login is read.
        client.tokenAuthorization.withLock { $0 = nil }
        let answer = try client.sendOnce(request)
        guard (200..<300).contains(answer.status) else { throw fail("the answer's status is \(answer.status)") }
        if let expected = login.loggedInText, !expected.isEmpty, !answer.text.contains(expected) {
            throw fail("the answer does not show '\(expected)'")
        }
        return (nil, answer)
    }

    /// The login's token from `answer`, as the `Authorization` value to send (nothing without a `token`).
    private static func takeToken(
        _ login: WebLogin, from answer: WebResponse, client: WebClient, fail: (String) -> SentinelError
    ) throws {
        guard let place = login.token else { return }
        let token: String?
        switch place {
        case .header(let name):
            token = answer.header(name).map { value in
                // `Authorization: Bearer x` handed out as it is to be sent: the token is `x`.
                let parts = value.split(separator: " ", maxSplits: 1)
                return parts.count == 2 && parts[0].lowercased() == "bearer" ? String(parts[1]) : value
            }
        case .json(let path):
            token = (try? JSON.parse(answer.body, file: "login answer")).flatMap { document in
                var node: DocumentNode? = document
                for key in path.split(separator: ".") { node = node?[String(key)] }
                if case .string(let text)? = node?.value { return text }
                return nil
            }
        }
        guard let token, !token.isEmpty, !token.contains(where: { $0.isNewline }) else {
            throw fail("the answer holds no token at \(place.description)")
        }
        let value = login.authorization.replacingOccurrences(of: "{token}", with: token)
        client.tokenAuthorization.withLock { $0 = value }
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

extension WebLogin.Token {
    /// `json: data.token` or `header: Authorization`, as the config writes it.
    var description: String {
        switch self {
        case .json(let path): "json: \(path)"
        case .header(let name): "header: \(name)"
        }
    }
}
