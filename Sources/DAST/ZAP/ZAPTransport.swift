import HTTP

/// How `ZAPClient` sends its requests: over libcurl (`ZAPHTTPTransport`), or through a test
/// double that fails on purpose.
public protocol ZAPTransport: Sendable {
    /// Performs `request` and returns the response with its body. Throws (normally
    /// `SentinelError(.network)`) when no response came: refused, timed out, too large.
    func send(_ request: HTTPRequest) throws -> (HTTPResponse, [UInt8])
}

/// The real transport: `HTTPClient.send` (libcurl, http and https only, bounded body).
public struct ZAPHTTPTransport: ZAPTransport {
    /// The libcurl transport.
    public init() {}

    /// Sends `request` with `HTTPClient.send`.
    public func send(_ request: HTTPRequest) throws -> (HTTPResponse, [UInt8]) {
        try HTTPClient.send(request)
    }
}
