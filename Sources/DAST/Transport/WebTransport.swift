/// Sends one request and returns the target's answer, without following redirects. Throws
/// `SentinelError(.network)` when no answer came (refused, timed out, not HTTP). The engine
/// talks only to this protocol, so tests can also drive it with a fake.
public protocol WebTransport: Sendable {
    /// Sends `request` as it is (no redirects, no cookies added).
    func send(_ request: WebRequest) throws -> WebResponse
}
