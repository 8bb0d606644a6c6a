/// The status line and headers of the final response (after redirects).
public struct HTTPResponse: Sendable, Hashable {
    /// The HTTP status code of the final response, e.g. 200 or 304.
    public var status: Int
    /// Header lines in order, names as sent.
    public var headers: [HTTPHeader]
    /// Body bytes received (written to the destination, or returned by `send`).
    public var bodyBytes: Int64
    /// True when the body was cut at the request's `maxBytes` (`HTTPRequest.truncateBody`).
    public var truncated = false

    /// A response with `status`, `headers` and a body of `bodyBytes` bytes (fake transports in tests).
    public init(status: Int, headers: [HTTPHeader] = [], bodyBytes: Int64 = 0) {
        self.status = status
        self.headers = headers
        self.bodyBytes = bodyBytes
    }

    /// The first header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The `ETag` header, or nil when the server sent none.
    public var etag: String? { header("ETag") }
    /// The `Last-Modified` header, or nil when the server sent none.
    public var lastModified: String? { header("Last-Modified") }
}

/// One response header.
public struct HTTPHeader: Sendable, Hashable {
    /// The header's name, as sent (compare case-insensitively).
    public var name: String
    /// The header's value, as sent.
    public var value: String

    /// A header `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}
