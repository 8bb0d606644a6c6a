import HTTP

/// What the target answered: status, headers, the body (cut at the scan's per-response cap),
/// and how long it took. Redirects are never followed, so this is the target's own answer.
public struct WebResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// Header lines in order.
    public var headers: [HTTPHeader]
    /// The body bytes (at most the per-response cap).
    public var body: [UInt8]
    /// The body decoded as UTF-8 (invalid bytes replaced): what the checks search.
    public let text: String
    /// Seconds from sending to the end of the body.
    public var elapsed: Double
    /// True when the body was longer than the cap and was cut.
    public var truncated: Bool

    /// A response; `text` is decoded from `body`.
    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = [], elapsed: Double = 0, truncated: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.text = String(decoding: body, as: UTF8.self)
        self.elapsed = elapsed
        self.truncated = truncated
    }

    /// The first header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every header named `name`, case-insensitively, in order.
    public func headers(named name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The media type without parameters, lowercased (`text/html`); empty when absent.
    public var mediaType: String {
        guard let value = header("Content-Type") else { return "" }
        return value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
    }

    /// True for HTML pages: a browser renders them (and runs their scripts). A missing content
    /// type counts when the body looks like markup, as browsers sniff it.
    public var isHTML: Bool {
        let type = mediaType
        if type == "text/html" || type == "application/xhtml+xml" { return true }
        if type.isEmpty { return text.prefix(512).lowercased().contains("<html") || text.hasPrefix("<") }
        return false
    }

    /// True for 301, 302, 303, 307 and 308 with a `Location`.
    public var isRedirect: Bool { [301, 302, 303, 307, 308].contains(status) && header("Location") != nil }
}
