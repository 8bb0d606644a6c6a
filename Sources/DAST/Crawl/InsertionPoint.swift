import Web

/// One place a check puts a payload: a query parameter, form field, JSON leaf, cookie, header
/// or the whole body of an endpoint. `request(_:)` builds the endpoint's request with the
/// payload there and every other parameter at its default.
public struct InsertionPoint: Sendable, Hashable {
    /// Where the payload goes.
    public enum Place: Sendable, Hashable {
        case query(String)
        case form(String)
        case json(JSONPath)
        case cookie(String)
        case header(String)
        /// The whole raw body (an XML document, say).
        case body
        /// The last segment of the URL's path, percent-encoded (a page that shows the path it
        /// was asked for: not-found pages, `/hello/<name>` routes).
        case path
    }

    /// The endpoint the payload is sent to.
    public var endpoint: Endpoint
    /// Where in it.
    public var place: Place
    /// The value the parameter has by default (what a payload may be appended to).
    public var original: String
    /// `original` as the page gave it, still encoded (a link's query value), when it came so: a
    /// payload appended to the original is appended to these bytes, not to their decoding
    /// (where bytes that are not UTF-8 would have become U+FFFD).
    public var rawOriginal: String?

    /// A point of `endpoint`; `rawOriginal`: `original` as the page gave it, when it did.
    public init(endpoint: Endpoint, place: Place, original: String, rawOriginal: String? = nil) {
        self.endpoint = endpoint
        self.place = place
        self.original = original
        self.rawOriginal = rawOriginal
    }

    /// The parameter's name as findings report it (`q`, `user.name`, `Cookie: prefs`).
    public var name: String {
        switch place {
        case .query(let name), .form(let name): name
        case .json(let path): path.description
        case .cookie(let name): name
        case .header(let name): name
        case .body: "body"
        case .path: "(path)"
        }
    }

    /// True when the original value is a number (an id, a count): not a file name or a URL, and
    /// a numeric SQL context.
    public var isNumeric: Bool { !original.isEmpty && original.allSatisfy(\.isNumber) }

    /// `query`, `form`, `json`, `cookie`, `header` or `body`: where the parameter is.
    public var kind: String {
        switch place {
        case .query: "query"
        case .form: "form"
        case .json: "json"
        case .cookie: "cookie"
        case .header: "header"
        case .body: "body"
        case .path: "path"
        }
    }

    /// The endpoint's request with `value` in this place.
    public func request(_ value: String) -> WebRequest {
        var endpoint = endpoint
        var extraCookie: NameValue?
        switch place {
        case .query(let name):
            endpoint.query = Self.replace(name, in: endpoint.query, with: value, raw: encoded(value))
        case .form(let name):
            if case .form(let pairs) = endpoint.body {
                endpoint.body = .form(Self.replace(name, in: pairs, with: value, raw: encoded(value)))
            }
        case .json(let path):
            if case .json(let node) = endpoint.body { endpoint.body = .json(path.replacing(in: node, with: value)) }
        case .body:
            if case .raw(let type, _) = endpoint.body { endpoint.body = .raw(contentType: type, text: value) }
        case .cookie(let name):
            extraCookie = NameValue(name, value)
        case .header:
            break
        case .path:
            let parent = endpoint.url.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            endpoint.url = endpoint.url.with(path: parent.joined(separator: "/") + "/" + FormEncoding.percentEncode(value))
        }
        var request = endpoint.request
        if case .header(let name) = place { request.setHeader(name, value) }
        if let extraCookie { request.setHeader("Cookie", "\(extraCookie.name)=\(extraCookie.value)") }
        return request
    }

    /// Every point of `endpoint`: its query parameters, form fields, JSON leaves or raw body, and
    /// the session cookies given.
    public static func all(of endpoint: Endpoint, cookies: [NameValue] = []) -> [InsertionPoint] {
        var points = endpoint.query.map {
            InsertionPoint(endpoint: endpoint, place: .query($0.name), original: $0.value, rawOriginal: $0.raw)
        }
        switch endpoint.body {
        case .none: break
        case .form(let pairs):
            points += pairs.map {
                InsertionPoint(endpoint: endpoint, place: .form($0.name), original: $0.value, rawOriginal: $0.raw)
            }
        case .json(let node):
            // A GraphQL request's values are its variables; the document itself is not a parameter.
            let graphQL = [.graphqlQuery, .graphqlMutation].contains(endpoint.discovery)
            points += JSONPath.leaves(of: node).filter { !graphQL || $0.steps.first == .key("variables") }.map {
                InsertionPoint(endpoint: endpoint, place: .json($0), original: $0.value(in: node) ?? "")
            }
        case .raw(_, let text):
            points.append(InsertionPoint(endpoint: endpoint, place: .body, original: text))
        }
        points += cookies.map { InsertionPoint(endpoint: endpoint, place: .cookie($0.name), original: $0.value) }
        // Repeated names (`a=1&a=2`) are one parameter.
        var seen = Set<Place>()
        return points.filter { seen.insert($0.place).inserted }
    }

    /// A page the site does not have, its one path segment the point: what a not-found page
    /// shows of the path it was asked for (reflected, or rendered as a template) is tested once
    /// per site.
    public static func missingPage(of site: WebURL) -> InsertionPoint {
        let original = "sentinel-missing-page"
        let endpoint = Endpoint(method: "GET", url: site.with(path: "/" + original).withQuery([]), discovery: .start)
        return InsertionPoint(endpoint: endpoint, place: .path, original: original)
    }

    /// `value` encoded for a query or form body when it extends the original as the page gave it
    /// (its raw bytes, then the rest percent-encoded); nil: encode the whole value afresh.
    private func encoded(_ value: String) -> String? {
        guard let rawOriginal, value.hasPrefix(original) else { return nil }
        return rawOriginal + FormEncoding.percentEncode(String(value.dropFirst(original.count)))
    }

    private static func replace(_ name: String, in pairs: [NameValue], with value: String, raw: String?) -> [NameValue] {
        var replaced = false
        return pairs.map { pair in
            guard pair.name == name, !replaced else { return pair }
            replaced = true
            return NameValue(name, value, raw: raw)
        }
    }
}
