import Web

/// What the scan may request: the target's origin (scheme, host, port) and nothing else. The
/// crawler asks before queueing a link, `WebClient` asks again before sending anything (a
/// redirect, an OpenAPI server, a form action), and the egress proxy outside the sandbox enforces
/// the same host and port whatever the engine does.
public struct Scope: Sendable, Hashable {
    /// The one origin in scope.
    public let origin: WebOrigin

    /// The scope of `target`: its origin.
    public init(target: WebURL) {
        self.origin = target.origin
    }

    /// True when `url` has the target's scheme, host and port.
    public func contains(_ url: WebURL) -> Bool {
        url.origin == origin
    }

    /// `host:port`, the egress allow-list entry for this scope.
    public var egressEntry: String {
        "\(origin.host):\(origin.port)"
    }
}
