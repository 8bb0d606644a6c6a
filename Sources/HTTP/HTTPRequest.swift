/// One request: method, URL, headers, body and the limits that bound it. `HTTPClient.get`
/// streams the body of the answer to a file, `HTTPClient.send` returns it in memory; both cap
/// it at `maxBytes`, so a hostile or broken server cannot fill the disk or the heap.
///
/// Header values are credentials as often as not (`Authorization`), so the descriptions of a
/// request name the headers but never print their values or the body.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, e.g. `GET` or `POST` (an HTTP token: letters, digits, `-`, `_`).
    public var method: String
    /// The absolute URL to fetch.
    public var url: String
    /// Extra request headers (`If-None-Match`, `Accept`, `Content-Type`, `Authorization`).
    public var headers: [String: String]
    /// The bytes sent after the headers; empty sends none (a GET).
    public var body: [UInt8]
    /// The whole transfer's limit, seconds.
    public var timeout: Double
    /// The limit for establishing the connection, seconds.
    public var connectTimeout: Double
    /// The largest body accepted; a larger one fails the request (or is cut, with `truncateBody`).
    public var maxBytes: Int64
    /// Follow redirects (GET and HEAD without a body only). A scanner turns this off: it decides
    /// itself whether a `Location` is in scope, and never follows one that is not.
    public var followRedirects = true
    /// With `send`: keep the first `maxBytes` of a larger body and report it cut
    /// (`HTTPResponse.truncated`) instead of failing the request.
    public var truncateBody = false
    /// The proxy to send the request through (`http://127.0.0.1:3128`), nil for curl's default
    /// (the environment's). A set proxy is used for every host: nothing bypasses it.
    public var proxy: String?

    /// Makes a request for `url` with the given headers, body and limits (seconds, bytes);
    /// by default a GET without a body.
    public init(
        url: String, method: String = "GET", headers: [String: String] = [:], body: [UInt8] = [],
        timeout: Double = 300, connectTimeout: Double = 30, maxBytes: Int64 = 1 << 30
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.connectTimeout = connectTimeout
        self.maxBytes = maxBytes
    }

    /// `METHOD URL`: how errors name the request.
    var label: String { "\(method) \(url)" }
}

extension HTTPRequest: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// `METHOD URL`, the header names and the body's size; never a header value.
    public var description: String {
        let names = headers.keys.sorted().joined(separator: ", ")
        return "\(label) (headers: \(names.isEmpty ? "none" : names); body: \(body.count) bytes)"
    }

    /// Same as `description`: debug output must not show credentials either.
    public var debugDescription: String { description }

    /// `dump` and debuggers see the method, URL, header names, body size and limits only.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "method": method, "url": url, "headerNames": headers.keys.sorted(), "bodyBytes": body.count,
                "timeout": timeout, "connectTimeout": connectTimeout, "maxBytes": maxBytes,
                "followRedirects": followRedirects, "truncateBody": truncateBody, "proxy": proxy ?? "",
            ], displayStyle: .struct)
    }
}
