/// How an authenticated scan logs in: a form login, as a user would do it. The scan fetches
/// `url`, fills the login form found there (the form naming every configured field, else the
/// first with a password field) with `fields` (its other controls keep their own values, so a
/// hidden CSRF token goes back as served), submits it and follows the redirects; the session's
/// cookies are then sent with every request. When an answer says the session is gone (a redirect
/// to the login page, a 401, or `loggedOutText`), the scan logs in again and repeats the request.
/// An API login (`format: json`) posts `fields` as a JSON object to `url` instead, and takes the
/// session's token from the answer (`token`), sent back as `authorization` says.
/// Comes from the operator only (`scan --config FILE`): it holds credentials.
public struct WebLogin: Sendable, Codable, Hashable {
    /// How the values are sent.
    public enum Format: String, Sendable, Codable, Hashable {
        /// Through the login page's HTML form.
        case form
        /// As a JSON object posted to `url` (an API's login).
        case json
    }

    /// Where an API login's answer holds the session's token.
    public enum Token: Sendable, Codable, Hashable {
        /// A member of the JSON answer, by dotted path (`token`, `data.access_token`).
        case json(String)
        /// A response header (`Authorization`, `X-Auth-Token`).
        case header(String)
    }

    /// The page with the login form: a path on the target (`/login`) or a URL on its origin.
    public var url: String
    /// Values of the form's fields, by name (`username`, `password`, ...).
    public var fields: [String: String]
    /// Text an answer to the login shows only when it succeeded (`Log out`); nil: the login
    /// succeeded when its final page has no login form and no `loggedOutText`.
    public var loggedInText: String?
    /// Text a page shows only when nobody is logged in (`Please log in`).
    public var loggedOutText: String?
    /// How the values are sent (default: the form).
    public var format: Format = .form
    /// Where the answer holds the token (nil: the session is its cookies).
    public var token: Token?
    /// The `Authorization` header sent with the token, `{token}` standing for it.
    public var authorization = "Bearer {token}"

    /// A login at `url` with `fields`.
    public init(url: String, fields: [String: String], loggedInText: String? = nil, loggedOutText: String? = nil) {
        self.url = url
        self.fields = fields
        self.loggedInText = loggedInText
        self.loggedOutText = loggedOutText
    }

    /// Times a scan logs in again after the session ended, at most: a target that drops every
    /// session at once would otherwise turn each request into a login.
    public static let maxRenewals = 25
    /// Redirects followed after the login page and after the submission, each.
    static let maxRedirects = 5
}
