#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address as raw network-order bytes (4 or 16 of them).
///
/// Parsing is strict on purpose: only canonical dotted-quad IPv4 (no octal, hex or
/// shortened forms such as `127.1`) and RFC 4291 IPv6 text without zone ids, so that
/// the text a rule names and the address a socket reaches are the same thing.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    /// Network-order bytes: 4 for IPv4, 16 for IPv6.
    public let bytes: [UInt8]

    /// Wraps raw bytes; `nil` unless there are exactly 4 or 16.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 4 || bytes.count == 16 else { return nil }
        self.bytes = bytes
    }

    /// Parses `192.0.2.1` or `2001:db8::1` (no brackets, no zone id); `nil` otherwise.
    public init?(_ text: String) {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        if text.utf8.contains(UInt8(ascii: ":")) {
            var raw = in6_addr()
            guard inet_pton(AF_INET6, text, &raw) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
        } else {
            // glibc's inet_pton accepts only four decimal parts and rejects leading zeros.
            var raw = in_addr()
            guard inet_pton(AF_INET, text, &raw) == 1 else { return nil }
            bytes = withUnsafeBytes(of: &raw) { Array($0) }
        }
    }

    /// True for a 4-byte address.
    public var isIPv4: Bool { bytes.count == 4 }

    /// The IPv4 address an IPv6 address carries when it is IPv4-mapped (`::ffff:a.b.c.d`),
    /// IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) or 6to4 (`2002::/16`); these
    /// reach (or are translated to) that IPv4 host, so range checks must look inside.
    public var embeddedIPv4: IPAddress? {
        guard bytes.count == 16 else { return nil }
        let head = bytes[0..<10]
        if head.allSatisfy({ $0 == 0 }) {
            if bytes[10] == 0xff && bytes[11] == 0xff { return IPAddress(bytes: Array(bytes[12..<16])) }
            if bytes[10] == 0 && bytes[11] == 0 && bytes[12..<15].contains(where: { $0 != 0 }) {
                return IPAddress(bytes: Array(bytes[12..<16]))
            }
            return nil
        }
        if bytes[0] == 0x00 && bytes[1] == 0x64 && bytes[2] == 0xff && bytes[3] == 0x9b
            && bytes[4..<12].allSatisfy({ $0 == 0 })
        {
            return IPAddress(bytes: Array(bytes[12..<16]))
        }
        if bytes[0] == 0x20 && bytes[1] == 0x02 { return IPAddress(bytes: Array(bytes[2..<6])) }
        return nil
    }

    /// True when the first `prefix` bits equal those of `network` (same family only).
    public func isIn(_ network: IPAddress, prefix: Int) -> Bool {
        guard network.bytes.count == bytes.count, prefix >= 0, prefix <= bytes.count * 8 else { return false }
        var remaining = prefix
        var index = 0
        while remaining >= 8 {
            if bytes[index] != network.bytes[index] { return false }
            remaining -= 8
            index += 1
        }
        guard remaining > 0 else { return true }
        let mask = UInt8(truncatingIfNeeded: 0xff << (8 - remaining))
        return bytes[index] & mask == network.bytes[index] & mask
    }

    /// Canonical text: dotted quad, or RFC 5952 IPv6 as `inet_ntop` writes it.
    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        let ok: Bool = bytes.withUnsafeBytes { raw in
            inet_ntop(isIPv4 ? AF_INET : AF_INET6, raw.baseAddress, &buffer, socklen_t(buffer.count)) != nil
        }
        guard ok else { return "?" }
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `host:port` with brackets around IPv6, as in URLs and the denial line.
    public func withPort(_ port: UInt16) -> String {
        isIPv4 ? "\(self):\(port)" : "[\(self)]:\(port)"
    }
}
