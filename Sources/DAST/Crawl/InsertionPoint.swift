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
        /// The path segment at this index of the path split on `/` (index 0 is before the
        /// first `/`), percent-encoded: a segment that wraps a value (`/export/cm9wZQ==`).
        case segment(Int)
        /// The content of the file a multipart form's input sends, one byte per scalar.
        case upload(String)
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
    /// Set when the point is what the parameter's value wraps (hex, base64, bytes that are not
    /// UTF-8): `original` is the decoded value, and every value sent is wrapped the same way.
    public var coding: ValueCoding?
    /// True when `original` holds bytes one scalar each, not text (a serialised object): only
    /// checks that read bytes test it.
    public var isBinary = false

    /// A point of `endpoint`; `rawOriginal`: `original` as the page gave it, when it did.
    public init(endpoint: Endpoint, place: Place, original: String, rawOriginal: String? = nil) {
        self.endpoint = endpoint
        self.place = place
        self.original = original
        self.rawOriginal = rawOriginal
    }

    /// The point inside this one's value when the value wraps text or a serialised object
    /// (`ValueCoding.inner`); nil otherwise. Query, form, JSON and cookie values only.
    public var wrapped: InsertionPoint? {
        guard coding == nil else { return nil }
        switch place {
        case .query, .form, .json, .cookie, .body, .segment: break
        case .header, .path, .upload: return nil
        }
        guard let inner = ValueCoding.inner(of: original, raw: rawOriginal) else { return nil }
        var point = InsertionPoint(endpoint: endpoint, place: place, original: inner.text)
        point.coding = inner.coding
        point.isBinary = inner.binary
        return point
    }

    /// The parameter's name as findings report it (`q`, `user.name`, `Cookie: prefs`).
    public var name: String {
        guard let coding else { return parameter }
        return "\(parameter) (\(coding.label))"
    }

    /// The parameter's name, without the coding a wrapped point adds.
    public var parameter: String {
        switch place {
        case .query(let name), .form(let name): name
        case .json(let path): path.description
        case .cookie(let name): name
        case .header(let name): name
        case .body: "body"
        case .path: "(path)"
        case .segment(let index): "(path segment \(index))"
        case .upload(let name): name
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
        case .path, .segment: "path"
        case .upload: "upload"
        }
    }

    /// The endpoint's request with `value` in this place.
    public func request(_ value: String) -> WebRequest {
        var value = value
        var raw = encoded(value)
        if let coding {
            value = coding.wrap(value, binary: isBinary)
            // Bytes that are not UTF-8 travel only as their escapes.
            if coding == .bytes { (raw, value) = (value, FormEncoding.unescape(Substring(value))) }
        }
        var endpoint = endpoint
        var extraCookie: NameValue?
        switch place {
        case .query(let name):
            endpoint.query = Self.replace(name, in: endpoint.query, with: value, raw: raw)
        case .form(let name):
            if case .form(let pairs) = endpoint.body {
                endpoint.body = .form(Self.replace(name, in: pairs, with: value, raw: raw))
            } else if case .multipart(let pairs, let files) = endpoint.body {
                endpoint.body = .multipart(Self.replace(name, in: pairs, with: value, raw: nil), files: files)
            }
        case .upload(let name):
            if case .multipart(let pairs, var files) = endpoint.body, let index = files.firstIndex(where: { $0.field == name }) {
                files[index].content = value.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
                endpoint.body = .multipart(pairs, files: files)
            }
        case .json(let path):
            if case .json(let node) = endpoint.body { endpoint.body = .json(path.replacing(in: node, with: value)) }
        case .body:
            if case .raw(let type, _) = endpoint.body { endpoint.body = .raw(contentType: type, text: value) }
        case .cookie(let name):
            extraCookie = NameValue(name, Self.headerSafe(value, breaking: ";"))
        case .header:
            break
        case .path:
            let parent = endpoint.url.path.split(separator: "/", omittingEmptySubsequences: false).dropLast()
            endpoint.url = endpoint.url.with(path: parent.joined(separator: "/") + "/" + FormEncoding.percentEncode(value))
        case .segment(let index):
            var segments = endpoint.url.path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
            if segments.indices.contains(index) { segments[index] = FormEncoding.percentEncode(value) }
            endpoint.url = endpoint.url.with(path: segments.joined(separator: "/"))
        }
        var request = endpoint.request
        if case .header(let name) = place { request.setHeader(name, Self.headerSafe(value, breaking: "")) }
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
        case .multipart(let pairs, let files):
            points += pairs.map { InsertionPoint(endpoint: endpoint, place: .form($0.name), original: $0.value) }
            // A file's content is bytes: only the checks that read documents and objects test it.
            points += files.map { file in
                var point = InsertionPoint(endpoint: endpoint, place: .upload(file.field), original: ValueCoding.latin1(file.content))
                point.isBinary = true
                return point
            }
        }
        points += cookies.map { InsertionPoint(endpoint: endpoint, place: .cookie($0.name), original: $0.value) }
        // Repeated names (`a=1&a=2`) are one parameter.
        var seen = Set<Place>()
        let distinct = points.filter { seen.insert($0.place).inserted }
        return distinct + distinct.compactMap(\.wrapped) + wrappingSegments(of: endpoint)
    }

    /// The path segments of `endpoint` that wrap a value (`ValueCoding.inner`), as points inside
    /// them; a plain segment (a name, an id) is a route, not a parameter, and is not tested.
    static func wrappingSegments(of endpoint: Endpoint) -> [InsertionPoint] {
        let segments = endpoint.url.path.split(separator: "/", omittingEmptySubsequences: false)
        return segments.indices.compactMap { index in
            let decoded = FormEncoding.unescapedBytes(segments[index], plusIsSpace: false).bytes
            guard let text = String(validating: decoded, as: UTF8.self), ValueCoding.inner(of: text, raw: nil) != nil else {
                return nil
            }
            return InsertionPoint(endpoint: endpoint, place: .segment(index), original: text).wrapped
        }
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
        guard coding == nil, let rawOriginal, value.hasPrefix(original) else { return nil }
        return rawOriginal + FormEncoding.percentEncode(String(value.dropFirst(original.count)))
    }

    /// `value` as a header can carry it: where it holds a byte that would end the header line
    /// (CR, LF, NUL) or, in a cookie, the value (`;`), those bytes and `%` go percent-encoded — a
    /// server that decodes the value reads the payload, and one that does not reads it inert.
    /// Otherwise as it is, byte for byte.
    static func headerSafe(_ value: String, breaking: String) -> String {
        let breaks = Set(Array("\r\n\0".utf8) + Array(breaking.utf8))
        guard value.utf8.contains(where: breaks.contains) else { return value }
        let allowed = String(
            decoding: (0x20...0x7E).map { UInt8($0) }.filter { !breaks.contains($0) && $0 != UInt8(ascii: "%") }, as: UTF8.self)
        return FormEncoding.percentEncode(value, allowing: allowed)
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
