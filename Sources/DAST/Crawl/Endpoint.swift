import Documents
import Web

/// A request the application accepts, with the parameters the active checks inject into:
/// found by following a link, submitting a form, or from robots.txt, a sitemap or OpenAPI.
public struct Endpoint: Sendable, Hashable {
    /// How the crawler found it.
    public enum Discovery: String, Sendable, Hashable, Codable {
        case start, link, form, redirect, robots, sitemap, openapi, script, login
        /// A GraphQL query or mutation from the API's introspection.
        case graphqlQuery = "graphql-query", graphqlMutation = "graphql-mutation"
    }

    /// What the body is.
    public enum Body: Sendable, Hashable {
        /// No body.
        case none
        /// `application/x-www-form-urlencoded` pairs.
        case form([NameValue])
        /// A JSON document (its string and number leaves are parameters).
        case json(DocumentNode)
        /// Any other body sent as it is (`application/xml`, `text/plain`): one parameter, the whole body.
        case raw(contentType: String, text: String)
        /// `multipart/form-data`: a form's fields and its files (each file's content a parameter).
        case multipart([NameValue], files: [UploadFile])
    }

    /// `GET`, `POST`, ...
    public var method: String
    /// The URL without its query.
    public var url: WebURL
    /// Query parameters with their default values.
    public var query: [NameValue]
    /// The body.
    public var body: Body
    /// Extra headers the endpoint needs (OpenAPI header parameters).
    public var headers: [NameValue] = []
    /// How it was found.
    public var discovery: Discovery

    /// An endpoint; `url`'s own query becomes `query` unless `query` is given.
    public init(method: String, url: WebURL, query: [NameValue]? = nil, body: Body = .none, discovery: Discovery) {
        self.method = method.uppercased()
        self.query = query ?? (url.query.map(FormEncoding.decodeKeepingRaw) ?? []).map { NameValue($0.name, $0.value, raw: $0.raw) }
        self.url = url.withQuery([])
        self.body = body
        self.discovery = discovery
    }

    /// Method, path and the parameter names: two endpoints with the same key are tested once.
    public var key: String {
        var names = query.map(\.name)
        switch body {
        case .none: break
        case .form(let pairs): names += pairs.map { "f:" + $0.name }
        case .json(let node): names += JSONPath.leaves(of: node).map { "j:" + $0.description }
        case .raw(let type, _): names.append("raw:" + type)
        case .multipart(let pairs, let files): names += pairs.map { "f:" + $0.name } + files.map { "file:" + $0.field }
        }
        return "\(method) \(url.origin)\(url.path)?" + Set(names).sorted().joined(separator: "&")
    }

    /// The request with every parameter at its default value.
    public var request: WebRequest {
        var request = WebRequest(
            method: method, url: url.with(query: query.isEmpty ? nil : FormEncoding.encode(query.map { ($0.name, $0.value, $0.raw) })))
        for header in headers { request.setHeader(header.name, header.value) }
        switch body {
        case .none: break
        case .form(let pairs):
            request.setHeader("Content-Type", "application/x-www-form-urlencoded")
            request.body = Array(FormEncoding.encode(pairs.map { ($0.name, $0.value, $0.raw) }).utf8)
        case .json(let node):
            request.setHeader("Content-Type", "application/json")
            request.body = JSONWriter.bytes(node, sortKeys: false)
        case .raw(let type, let text):
            request.setHeader("Content-Type", type)
            request.body = Array(text.utf8)
        case .multipart(let pairs, let files):
            request.setHeader("Content-Type", "multipart/form-data; boundary=\(UploadFile.boundary)")
            request.body = UploadFile.body(fields: pairs, files: files)
        }
        return request
    }

    /// True for methods that may change the target's state (only forms, and only with `--active`).
    /// A GraphQL query is a read whatever its method.
    public var isMutating: Bool { discovery != .graphqlQuery && !["GET", "HEAD", "OPTIONS"].contains(method) }

    /// True for a state-changing request with a password field: a password change, an account
    /// deletion. Fuzzing it may end the scan's own session, so the scan tests it last.
    public var mayEndSession: Bool {
        guard isMutating, case .form(let pairs) = body else { return false }
        return pairs.contains { Self.isPassword($0.name) }
    }

    /// True for a sign-in form: one password field beside an account name (`user`, `login`,
    /// `email`, `name`). Its query is a lookup, not a write, so a widening condition (`OR`) only
    /// reads more rows — unlike a password change (two password fields) or an account deletion
    /// (a password alone), where it would reach every account.
    public var isSignIn: Bool {
        guard isMutating, case .form(let pairs) = body, pairs.count(where: { Self.isPassword($0.name) }) == 1 else {
            return false
        }
        return pairs.contains { pair in
            let name = pair.name.lowercased()
            return !Self.isPassword(name) && ["user", "login", "mail", "name", "account"].contains { name.contains($0) }
        }
    }

    /// True for the lookups a widening condition cannot harm: reads, and sign-in forms.
    public var isLookup: Bool { !isMutating || isSignIn }

    private static func isPassword(_ name: String) -> Bool {
        let name = name.lowercased()
        return name.contains("pass") || name.contains("pwd")
    }
}
