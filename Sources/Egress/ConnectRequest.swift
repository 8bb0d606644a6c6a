/// An HTTP `CONNECT host:port HTTP/1.1` request: the client asks for a raw tunnel.
struct ConnectRequest: Hashable, Sendable {
    var destination: EgressAuthority
    var head: HTTPRequestHead

    /// Parses a CONNECT request from the start of `bytes` (pure; see `HTTPRequestHead.parse`).
    /// Bytes after the head belong to the tunnel.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ProxyParseOutcome<ConnectRequest> {
        switch HTTPRequestHead.parse(bytes) {
        case .incomplete: return .incomplete
        case .invalid(let failure): return .invalid(failure)
        case .complete(let head, let consumed):
            guard head.method == "CONNECT" else {
                return .invalid(ProxyParseFailure("not a CONNECT request", status: 400))
            }
            guard let destination = EgressAuthority(Substring(head.target), defaultPort: nil) else {
                return .invalid(ProxyParseFailure("CONNECT target must be host:port", status: 400))
            }
            return .complete(ConnectRequest(destination: destination, head: head), consumed: consumed)
        }
    }
}
