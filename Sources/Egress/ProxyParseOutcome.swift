/// Why a request could not be parsed, and the status to answer with: an HTTP status
/// (400, 431, 501) or a SOCKS5 reply code (0x01, 0x07, 0x08).
struct ProxyParseFailure: Error, Hashable, Sendable {
    var reason: String
    var status: Int

    init(_ reason: String, status: Int) {
        self.reason = reason
        self.status = status
    }
}

/// The result of feeding the bytes received so far to one of the pure request parsers.
enum ProxyParseOutcome<Value: Sendable>: Sendable {
    /// More bytes are needed; nothing is wrong yet.
    case incomplete
    /// A whole request, and how many bytes of the input it used (the rest belongs to the tunnel).
    case complete(Value, consumed: Int)
    /// The bytes can never become a valid request.
    case invalid(ProxyParseFailure)
}

/// Limits that keep a hostile client from making the proxy buffer without bound.
enum ProxyParseLimits {
    /// The largest request head (request line and headers) accepted.
    static let maxHeadBytes = 16 * 1024
    /// The most header lines accepted.
    static let maxHeaderLines = 100
}
