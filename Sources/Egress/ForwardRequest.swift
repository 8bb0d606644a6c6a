/// A plain-HTTP forward-proxy request (`GET http://host:port/path HTTP/1.1`), with the
/// origin-form head the proxy sends upstream.
///
/// One request per connection: the upstream head always carries `Connection: close`, and
/// the proxy forwards exactly the head and `Content-Length` body bytes, nothing after, so
/// a pipelined second request (say, with another Host) never reaches the upstream.
/// `Transfer-Encoding` request bodies are refused (411) because their end cannot be
/// found without decoding them.
struct ForwardRequest: Hashable, Sendable {
    var method: String
    var destination: EgressAuthority
    /// Path and query, e.g. `/a/b?c=d`.
    var originForm: String
    /// Every `Host` header value the client sent.
    var hostHeaders: [String]
    /// The head to send upstream: origin-form request line, `Proxy-*`, `Connection` and
    /// `Keep-Alive` headers dropped, `Host` added when absent, `Connection: close`.
    var upstreamHead: [UInt8]
    /// The request body length from `Content-Length` (0 when absent).
    var bodyLength: Int

    /// Why the Host header(s) disagree with the URI, or `nil` when they agree. The proxy
    /// denies such a request: the upstream would otherwise serve a host that was never checked.
    var hostConflict: String? {
        guard !hostHeaders.isEmpty else { return nil }
        guard hostHeaders.count == 1 else { return "\(hostHeaders.count) Host headers" }
        guard let header = EgressAuthority(Substring(hostHeaders[0]), defaultPort: 80), header == destination else {
            return "Host header '\(hostHeaders[0].prefix(100))' does not match \(destination)"
        }
        return nil
    }

    /// Parses from the start of `bytes` (pure). Only `http://` URIs: HTTPS goes through CONNECT.
    static func parse(_ bytes: ArraySlice<UInt8>) -> ProxyParseOutcome<ForwardRequest> {
        switch HTTPRequestHead.parse(bytes) {
        case .incomplete: return .incomplete
        case .invalid(let failure): return .invalid(failure)
        case .complete(let head, let consumed):
            switch build(head) {
            case .success(let request): return .complete(request, consumed: consumed)
            case .failure(let failure): return .invalid(failure)
            }
        }
    }

    private static func build(_ head: HTTPRequestHead) -> Result<ForwardRequest, ProxyParseFailure> {
        guard head.method != "CONNECT" else {
            return .failure(ProxyParseFailure("CONNECT is not a forward request", status: 400))
        }
        let target = Substring(head.target)
        guard target.count > 7, target.prefix(7).lowercased() == "http://" else {
            return .failure(ProxyParseFailure("request target must be an absolute http:// URI", status: 400))
        }
        let rest = target.dropFirst(7)
        let authorityEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let authorityText = rest[..<authorityEnd]
        guard !authorityText.contains("@") else { return .failure(ProxyParseFailure("user info in URI", status: 400)) }
        guard let destination = EgressAuthority(authorityText, defaultPort: 80) else {
            return .failure(ProxyParseFailure("invalid host in URI", status: 400))
        }
        var origin = String(rest[authorityEnd...])
        if let hash = origin.firstIndex(of: "#") { origin = String(origin[..<hash]) }
        if origin.isEmpty || origin.hasPrefix("?") { origin = "/" + origin }

        var out = "\(head.method) \(origin) \(head.version)\r\n"
        var hostHeaders: [String] = []
        var lengths = Set<String>()
        for header in head.headers {
            let name = header.name.lowercased()
            if name == "host" { hostHeaders.append(header.value) }
            if name == "transfer-encoding" {
                return .failure(ProxyParseFailure("Transfer-Encoding request bodies are not supported", status: 411))
            }
            if name == "content-length" { lengths.insert(header.value) }
            if name.hasPrefix("proxy-") || name == "connection" || name == "keep-alive" { continue }
            out += "\(header.name): \(header.value)\r\n"
        }
        if hostHeaders.isEmpty {
            let port = destination.port == 80 ? "" : ":\(destination.port)"
            let host = destination.host.withPort(destination.port).dropLast(String(destination.port).count + 1)
            out += "Host: \(host)\(port)\r\n"
        }
        out += "Connection: close\r\n\r\n"
        var bodyLength = 0
        if let text = lengths.first {
            guard lengths.count == 1, !text.isEmpty, text.count <= 18,
                text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(text)
            else { return .failure(ProxyParseFailure("invalid Content-Length", status: 400)) }
            bodyLength = value
        }
        return .success(
            ForwardRequest(
                method: head.method, destination: destination, originForm: origin, hostHeaders: hostHeaders,
                upstreamHead: Array(out.utf8), bodyLength: bodyLength))
    }
}
