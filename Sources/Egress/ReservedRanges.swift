/// Address ranges a sandbox never reaches unless an allow entry names them explicitly:
/// private, loopback, link-local (cloud metadata), CGNAT, multicast, unspecified and reserved.
public enum ReservedRanges {
    /// One range as network address and prefix length.
    public struct Range: Sendable {
        /// The first address of the range.
        public let network: IPAddress
        /// The prefix length in bits.
        public let prefix: Int
    }

    /// IPv4 ranges; also applied to the IPv4 address embedded in IPv6 forms.
    public static let ipv4: [Range] = [
        "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16",
        "172.16.0.0/12", "192.0.0.0/24", "192.168.0.0/16", "198.18.0.0/15", "224.0.0.0/4",
        "240.0.0.0/4",
    ].compactMap(parse)

    /// IPv6 ranges.
    public static let ipv6: [Range] = [
        "::/128", "::1/128", "fc00::/7", "fe80::/10", "fec0::/10", "ff00::/8",
    ].compactMap(parse)

    /// True when `address` (or the IPv4 address it embeds) lies in a reserved range.
    public static func contains(_ address: IPAddress) -> Bool {
        if let inner = address.embeddedIPv4, contains(inner) { return true }
        let table = address.isIPv4 ? ipv4 : ipv6
        return table.contains { address.isIn($0.network, prefix: $0.prefix) }
    }

    private static func parse(_ text: String) -> Range? {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let network = IPAddress(String(parts[0])), let prefix = Int(parts[1]) else {
            return nil
        }
        return Range(network: network, prefix: prefix)
    }
}

extension ReservedRanges {
    /// True when the whole network `network/prefix` lies inside one reserved range, so a
    /// rule naming it names private space on purpose (`127.0.0.1`, `10.0.0.0/8`) rather than
    /// sweeping it in by accident (`0.0.0.0/0`).
    public static func covers(_ network: IPAddress, prefix: Int) -> Bool {
        let table = network.isIPv4 ? ipv4 : ipv6
        if table.contains(where: { prefix >= $0.prefix && network.isIn($0.network, prefix: $0.prefix) }) {
            return true
        }
        guard !network.isIPv4, let inner = network.embeddedIPv4 else { return false }
        // Mapped and compatible forms keep the IPv4 address in the last 32 bits.
        let innerPrefix = network.bytes[0] == 0 && network.bytes[1] == 0 ? prefix - 96 : (prefix == 128 ? 32 : -1)
        guard innerPrefix >= 0 else { return false }
        return covers(inner, prefix: innerPrefix)
    }
}
