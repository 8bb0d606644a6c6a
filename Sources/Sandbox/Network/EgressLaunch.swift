import Egress

/// Wires a profile's `network: proxy` into a launch: the sandbox listens on
/// 127.0.0.1:3128 in its own network namespace, hands the socket back, and the proxy
/// serves it here, outside, with the profile's allow-list.
public enum EgressLaunch {
    /// The port the proxy listens on inside every sandbox.
    public static let port: UInt16 = 3128

    /// Sets up `options` to serve `network` and returns the variables the payload needs
    /// (HTTP_PROXY and friends). Returns no variables, and changes nothing, for `network: none`.
    /// Throws `SentinelError(.invalidInput)` naming a bad allow or deny entry.
    public static func configure(
        _ options: inout LaunchOptions, network: Profile.Network,
        resolver: any Resolver = SystemResolver(),
        onDenied: @escaping @Sendable (EgressRecord) -> Void
    ) throws -> [String: String] {
        guard network.mode == .proxy else { return [:] }
        let policy = try EgressPolicy(allow: network.allow, deny: network.deny)
        // The proxy's buffers are the launcher's memory, not the sandbox's: bounded by its limit.
        let limits = EgressLimits(
            maxConnections: EgressLimits.connections(
                requested: network.maxConnections, memoryBytes: options.cgroupLimits.memoryBytes),
            maxTotalBytes: network.maxBytes > 0 ? Int64(network.maxBytes) : nil)
        options.proxyPort = Int(port)
        options.startEgress = { socket in
            let proxy = try EgressProxy(
                listeningSocket: socket, policy: policy, resolver: resolver, limits: limits,
                onDenied: onDenied)
            try proxy.start()
            return RunningProxy(proxy: proxy)
        }
        var variables: [String: String] = [:]
        for variable in EgressEnvironment.variables(port: port) { variables[variable.name] = variable.value }
        return variables
    }
}

/// The launcher's handle on a serving proxy: stopped once the sandbox tree has ended.
final class RunningProxy: EgressService {
    let proxy: EgressProxy

    init(proxy: EgressProxy) {
        self.proxy = proxy
    }

    func finish() -> [EgressSummary] {
        proxy.stop().map {
            EgressSummary(
                host: $0.host, port: $0.port, allowed: $0.allowed, bytes: UInt64(max(0, $0.bytes)),
                rule: $0.rule, address: $0.address)
        }
    }
}
