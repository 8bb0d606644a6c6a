/// Resource limits for one proxy (one sandbox run).
public struct EgressLimits: Hashable, Sendable {
    /// Connections served at once; further ones are answered 503 / SOCKS failure and recorded.
    public var maxConnections: Int
    /// Bytes relayed in both directions over all connections; `nil` for no limit.
    /// Connections that would cross it are cut at the limit.
    public var maxTotalBytes: Int64?
    /// A connection with no traffic either way for this long is closed.
    public var idleTimeout: Duration
    /// Time allowed per upstream address for the TCP handshake.
    public var connectTimeout: Duration
    /// Time allowed for a client to send its whole request head.
    public var requestTimeout: Duration

    /// Limits with the defaults a sandbox run uses unless its profile says otherwise.
    public init(
        maxConnections: Int = 64, maxTotalBytes: Int64? = nil, idleTimeout: Duration = .seconds(60),
        connectTimeout: Duration = .seconds(10), requestTimeout: Duration = .seconds(10)
    ) {
        self.maxConnections = maxConnections
        self.maxTotalBytes = maxTotalBytes
        self.idleTimeout = idleTimeout
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
    }
}

extension EgressLimits {
    /// The receive and send buffer of each of the proxy's sockets (the kernel keeps twice this).
    static let socketBufferBytes = 128 << 10

    /// The most host memory one proxied connection can hold: the relay's two buffers and the
    /// kernel's receive and send buffers of its two sockets.
    public static let bytesPerConnection = 2 * Int64(Relay.bufferSize) + 4 * 2 * Int64(socketBufferBytes)

    /// The connections a sandbox with `memoryBytes` of memory may hold at once: what its profile
    /// asks (`requested`), but never so many that the proxy's buffers (outside the sandbox's
    /// cgroup) could hold more than a quarter of the sandbox's own limit; at least 4.
    public static func connections(requested: Int, memoryBytes: UInt64?) -> Int {
        guard let memoryBytes else { return requested }
        let affordable = Int(min(Int64(Int.max), Int64(clamping: memoryBytes / 4) / bytesPerConnection))
        return max(1, min(requested, max(4, affordable)))
    }
}

extension Duration {
    /// Whole milliseconds, at least 1 and at most `Int32.max`, for `poll`.
    var pollMilliseconds: Int32 {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Int32(clamping: max(1, ms))
    }
}
