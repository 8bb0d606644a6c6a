/// `HTTPResponder`'s answer: HTTP/1.0, a length, and the connection closed after it.
public struct ResponderResponse: Sendable, Hashable {
    /// Status code, e.g. 200.
    public var status: Int
    /// Reason phrase, e.g. `OK`.
    public var reason: String
    /// `Content-Type`.
    public var contentType: String
    /// More header lines (`Allow: GET`), each without its line end.
    public var headers: [String]
    /// The body, sent as UTF-8 with its length.
    public var body: String

    /// An answer with `body` as `contentType` (plain text by default).
    public init(_ status: Int, _ reason: String, body: String, contentType: String = "text/plain", headers: [String] = []) {
        self.status = status
        self.reason = reason
        self.body = body
        self.contentType = contentType
        self.headers = headers
    }

    /// The bytes sent.
    func encoded() -> [UInt8] {
        let extra = headers.map { $0 + "\r\n" }.joined()
        return Array(
            ("HTTP/1.0 \(status) \(reason)\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\n"
                + "\(extra)Connection: close\r\n\r\n\(body)").utf8)
    }
}
