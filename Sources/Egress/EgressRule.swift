import Support

/// One allow or deny entry: `host`, `host:port`, `host:80,443`, `*.domain`, an IPv4 or
/// IPv6 literal (`[::1]:8080`) or a CIDR (`10.0.0.0/8:443`, `[fd00::/8]:443`).
/// Without ports an entry covers 80 and 443.
public struct EgressRule: Hashable, Sendable, CustomStringConvertible {
    /// What an entry names.
    public enum Target: Hashable, Sendable {
        /// Exactly this normalised name.
        case name(String)
        /// Names strictly below this domain (`*.example.com` does not cover `example.com`).
        case subdomains(of: String)
        /// An address (full-length prefix) or a CIDR block.
        case network(IPAddress, prefix: Int)
    }

    /// Ports an entry covers when it lists none.
    public static let defaultPorts: [UInt16] = [80, 443]

    /// The entry as written (trimmed); decisions quote it.
    public let text: String
    /// What the entry names: a host name, a domain's subdomains, or an address block.
    public let target: Target
    /// Sorted, without duplicates.
    public let ports: [UInt16]

    /// Parses one entry; throws `SentinelError(.invalidInput)` naming the entry.
    public init(_ entry: String) throws {
        let text = String(entry.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
        func bad(_ why: String) -> SentinelError {
            SentinelError(.invalidInput, "egress entry '\(entry)': \(why)")
        }
        guard !text.isEmpty else { throw bad("empty entry") }
        var hostPart = Substring(text)
        var portPart: Substring?
        if hostPart.hasPrefix("[") {
            guard let close = hostPart.firstIndex(of: "]") else { throw bad("missing ']'") }
            let rest = hostPart[hostPart.index(after: close)...]
            hostPart = hostPart[hostPart.index(after: hostPart.startIndex)..<close]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { throw bad("expected ':' after ']'") }
                portPart = rest.dropFirst()
            }
            guard hostPart.contains(":") else { throw bad("brackets are for IPv6 addresses only") }
        } else if hostPart.filter({ $0 == ":" }).count == 1, let colon = hostPart.firstIndex(of: ":") {
            portPart = hostPart[hostPart.index(after: colon)...]
            hostPart = hostPart[..<colon]
        }
        // Two or more colons without brackets: a bare IPv6 address or CIDR, no port.
        self.text = text
        self.target = try EgressRule.parseTarget(hostPart, bad: bad)
        if let portPart {
            self.ports = try EgressRule.parsePorts(portPart, bad: bad)
        } else {
            self.ports = EgressRule.defaultPorts
        }
    }

    private static func parseTarget(_ host: Substring, bad: (String) -> SentinelError) throws -> Target {
        guard !host.isEmpty else { throw bad("missing host") }
        if let slash = host.firstIndex(of: "/") {
            guard let address = IPAddress(String(host[..<slash])) else {
                throw bad("CIDR needs an IP address before '/'")
            }
            let bits = host[host.index(after: slash)...]
            guard !bits.isEmpty, bits.allSatisfy(\.isASCIIDigit), bits.count <= 3, let prefix = Int(bits),
                prefix <= address.bytes.count * 8
            else { throw bad("prefix length must be 0...\(address.bytes.count * 8)") }
            guard hostBitsAreZero(address, prefix: prefix) else {
                throw bad("address has bits set beyond the /\(prefix) prefix")
            }
            return .network(address, prefix: prefix)
        }
        if let address = IPAddress(String(host)) {
            return .network(address, prefix: address.bytes.count * 8)
        }
        if host.hasPrefix("*.") {
            guard let domain = EgressHost.normalisedName(host.dropFirst(2)) else {
                throw bad("invalid domain after '*.'")
            }
            return .subdomains(of: domain)
        }
        if host.contains("*") { throw bad("'*' is only allowed as a leading '*.' label") }
        guard let name = EgressHost.normalisedName(host) else {
            throw bad("not a valid host name or IP address")
        }
        return .name(name)
    }

    private static func hostBitsAreZero(_ address: IPAddress, prefix: Int) -> Bool {
        for bit in prefix..<(address.bytes.count * 8) where address.bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
            return false
        }
        return true
    }

    private static func parsePorts(_ list: Substring, bad: (String) -> SentinelError) throws -> [UInt16] {
        guard !list.isEmpty else { throw bad("empty port list after ':'") }
        var ports = Set<UInt16>()
        for item in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard !item.isEmpty, item.count <= 5, item.allSatisfy(\.isASCIIDigit), let value = Int(item),
                value >= 1, value <= 65535
            else { throw bad("port '\(item)' is not a number in 1...65535") }
            ports.insert(UInt16(value))
        }
        return ports.sorted()
    }

    /// True when this entry covers the name (not an address) on `port`.
    public func matches(name: String, port: UInt16) -> Bool {
        guard ports.contains(port) else { return false }
        switch target {
        case .name(let own): return own == name
        case .subdomains(let domain):
            return name.utf8.count > domain.utf8.count + 1 && name.hasSuffix("." + domain)
        case .network: return false
        }
    }

    /// True when this entry covers the address on `port` (same family only: an IPv4
    /// entry does not cover its IPv4-mapped IPv6 form).
    public func matches(address: IPAddress, port: UInt16) -> Bool {
        guard ports.contains(port), case .network(let network, let prefix) = target else { return false }
        return address.isIn(network, prefix: prefix)
    }

    /// True when this entry covers the host (name or literal) on `port`.
    public func matches(host: EgressHost, port: UInt16) -> Bool {
        switch host {
        case .name(let name): matches(name: name, port: port)
        case .address(let address): matches(address: address, port: port)
        }
    }

    /// True when this entry names private or reserved space explicitly.
    public var namesReservedSpace: Bool {
        guard case .network(let network, let prefix) = target else { return false }
        return ReservedRanges.covers(network, prefix: prefix)
    }

    /// The entry as written.
    public var description: String { text }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
