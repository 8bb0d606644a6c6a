import HTTP
import Web

/// One request the scanner sends: method, URL, headers and body. Built by the crawler and the
/// checks, sent by `WebClient` (which adds the session's cookies and headers).
public struct WebRequest: Sendable, Hashable {
    /// `GET`, `POST`, ...
    public var method: String
    /// The absolute URL.
    public var url: WebURL
    /// Headers in order (cookies and the session's headers are added when sent).
    public var headers: [HTTPHeader]
    /// The body; empty for none.
    public var body: [UInt8]

    /// A request; by default a GET without headers or body.
    public init(method: String = "GET", url: WebURL, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Sets header `name`, replacing any of that name.
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.lowercased() == name.lowercased() }
        headers.append(HTTPHeader(name: name, value: value))
    }

    /// `METHOD URL` and the body, as evidence shows a request (header values of credentials
    /// are left out by the caller).
    public var summary: String {
        var text = "\(method) \(url)"
        if !body.isEmpty { text += "\n\n" + String(decoding: body.prefix(2048), as: UTF8.self) }
        return text
    }
}
