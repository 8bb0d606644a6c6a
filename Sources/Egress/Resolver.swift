import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a host name into addresses. The proxy resolves names itself so that it can
/// check every address before connecting.
public protocol Resolver: Sendable {
    /// The addresses of `name` (already normalised), in preference order; throws
    /// `SentinelError` when the name does not resolve.
    func resolve(_ name: String) throws -> [IPAddress]
}

/// The host's resolver via `getaddrinfo` (blocking; the proxy calls it per connection).
public struct SystemResolver: Resolver {
    /// The host's resolver (`/etc/hosts`, `/etc/resolv.conf` and friends, as configured).
    public init() {}

    /// Calls `getaddrinfo`; the addresses in its order, without duplicates.
    public func resolve(_ name: String) throws -> [IPAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(name, nil, &hints, &list)
        guard status == 0 else {
            throw SentinelError(.io, "resolve \(name): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var result: [IPAddress] = []
        var cursor = list
        while let entry = cursor {
            if let address = SocketAddress(entry.pointee.ai_addr)?.address, !result.contains(address) {
                result.append(address)
            }
            cursor = entry.pointee.ai_next
        }
        guard !result.isEmpty else { throw SentinelError(.io, "resolve \(name): no addresses") }
        return result
    }
}

/// A fixed name → addresses table, for tests: it lets `allowed.test` resolve to
/// 127.0.0.1 (or to a public address) without any DNS.
public struct StaticResolver: Resolver {
    /// Normalised names and the addresses each resolves to.
    public let table: [String: [IPAddress]]

    /// Keys are normalised like request names (lower case, no trailing dot).
    public init(_ table: [String: [IPAddress]]) {
        var normalised: [String: [IPAddress]] = [:]
        for (name, addresses) in table {
            normalised[EgressHost.normalisedName(Substring(name)) ?? name] = addresses
        }
        self.table = normalised
    }

    /// The table's addresses for `name`; throws for a name it does not hold.
    public func resolve(_ name: String) throws -> [IPAddress] {
        guard let addresses = table[name], !addresses.isEmpty else {
            throw SentinelError(.io, "resolve \(name): unknown name")
        }
        return addresses
    }
}
