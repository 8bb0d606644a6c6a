/// How a client asked for a destination.
public enum EgressProtocol: String, Hashable, Sendable, Codable {
    case connect, http, socks5
}

/// One egress decision and, when allowed, what the connection carried. Encodes `host`,
/// `port`, `allowed` and `bytes` (both directions) for `--status-json`, plus the details.
public struct EgressRecord: Hashable, Sendable, Codable {
    /// The name or IP literal the client asked for (IPv6 without brackets).
    public var host: String
    /// The port the client asked for.
    public var port: Int
    /// The resolved address connected to, when a connection was made.
    public var address: String?
    /// Whether the policy let the request through.
    public var allowed: Bool
    /// The deciding entry or reason (see `EgressDecision.rule`).
    public var rule: String
    /// How the client asked (CONNECT, plain HTTP, SOCKS5).
    public var `protocol`: EgressProtocol
    /// Bytes written to the destination (what the server received).
    public var bytesOut: Int
    /// Bytes written back to the client (what the server sent and the client received).
    public var bytesIn: Int
    /// From accepting the connection to recording it, in milliseconds.
    public var durationMs: Int
    /// Why an allowed connection failed or ended early (connect refused, idle timeout, ...).
    public var error: String?

    /// A record; the byte counts, duration and error default to none.
    public init(
        host: String, port: Int, address: String? = nil, allowed: Bool, rule: String, protocol: EgressProtocol,
        bytesOut: Int = 0, bytesIn: Int = 0, durationMs: Int = 0, error: String? = nil
    ) {
        self.host = host
        self.port = port
        self.address = address
        self.allowed = allowed
        self.rule = rule
        self.protocol = `protocol`
        self.bytesOut = bytesOut
        self.bytesIn = bytesIn
        self.durationMs = durationMs
        self.error = error
    }

    /// Total bytes relayed both ways.
    public var bytes: Int { bytesOut + bytesIn }

    /// `host:port`, bracketing IPv6 literals.
    public var destination: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// The stderr line for a denial: `sentinel: egress denied: evil.example:443 (no rule matches)`.
    public var denialLine: String { "sentinel: egress denied: \(destination) (\(rule))" }

    private enum CodingKeys: String, CodingKey {
        case host, port, address, allowed, rule, `protocol`, bytes, bytesOut, bytesIn, durationMs, error
    }

    /// Encodes the fields plus `bytes` (both directions), the figure `--status-json` shows.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(host, forKey: .host)
        try container.encode(port, forKey: .port)
        try container.encodeIfPresent(address, forKey: .address)
        try container.encode(allowed, forKey: .allowed)
        try container.encode(rule, forKey: .rule)
        try container.encode(`protocol`, forKey: .protocol)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(bytesOut, forKey: .bytesOut)
        try container.encode(bytesIn, forKey: .bytesIn)
        try container.encode(durationMs, forKey: .durationMs)
        try container.encodeIfPresent(error, forKey: .error)
    }

    /// Decodes a record, also one that carries only `bytes` (taken as bytes sent).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        host = try container.decode(String.self, forKey: .host)
        port = try container.decode(Int.self, forKey: .port)
        address = try container.decodeIfPresent(String.self, forKey: .address)
        allowed = try container.decode(Bool.self, forKey: .allowed)
        rule = try container.decodeIfPresent(String.self, forKey: .rule) ?? ""
        `protocol` = try container.decodeIfPresent(EgressProtocol.self, forKey: .protocol) ?? .connect
        let total = try container.decodeIfPresent(Int.self, forKey: .bytes) ?? 0
        bytesOut = try container.decodeIfPresent(Int.self, forKey: .bytesOut) ?? total
        bytesIn = try container.decodeIfPresent(Int.self, forKey: .bytesIn) ?? 0
        durationMs = try container.decodeIfPresent(Int.self, forKey: .durationMs) ?? 0
        error = try container.decodeIfPresent(String.self, forKey: .error)
    }
}
