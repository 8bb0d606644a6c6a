#if canImport(Glibc)
    import Glibc
#endif

/// A destination as a request or a rule names it: a normalised DNS name or an IP literal.
public enum EgressHost: Hashable, Sendable, CustomStringConvertible {
    /// A lower-cased DNS name without its trailing dot.
    case name(String)
    /// An IP literal.
    case address(IPAddress)

    /// Parses `example.com`, `Example.COM.`, `192.0.2.1`, `::1` or `[::1]`; `nil` when the
    /// text is neither a valid name nor a canonical literal. Numeric forms that resolvers
    /// would read as an address (`127.1`, `0x7f000001`, `2130706433`) are rejected, so a
    /// name can never silently be an address.
    public init?(_ text: String) {
        var body = Substring(text)
        if body.hasPrefix("[") {
            guard body.hasSuffix("]"), body.count > 2 else { return nil }
            body = body.dropFirst().dropLast()
            guard let address = IPAddress(String(body)), !address.isIPv4 else { return nil }
            self = .address(address)
            return
        }
        if let address = IPAddress(String(body)) {
            self = .address(address)
            return
        }
        guard let name = EgressHost.normalisedName(body) else { return nil }
        self = .name(name)
    }

    /// The name in canonical form, or `nil` when `text` is not a valid host name.
    static func normalisedName(_ text: Substring) -> String? {
        var utf8 = Array(text.utf8)
        if utf8.last == UInt8(ascii: ".") { utf8.removeLast() }
        guard !utf8.isEmpty, utf8.count <= 253 else { return nil }
        var labelLength = 0
        var lastLabelNumeric = true
        for index in utf8.indices {
            let byte = utf8[index]
            switch byte {
            case UInt8(ascii: "."):
                guard labelLength > 0 else { return nil }
                labelLength = 0
                lastLabelNumeric = true
                continue
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                utf8[index] = byte + 32
                lastLabelNumeric = false
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                lastLabelNumeric = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                break
            default:
                return nil
            }
            labelLength += 1
            guard labelLength <= 63 else { return nil }
        }
        guard labelLength > 0, !lastLabelNumeric else { return nil }
        let name = String(decoding: utf8, as: UTF8.self)
        // inet_aton accepts hex and shortened forms (0x7f.1); such a "name" is an address.
        var probe = in_addr()
        guard inet_aton(name, &probe) == 0 else { return nil }
        return name
    }

    /// The text used in records and denial lines (IPv6 without brackets).
    public var description: String {
        switch self {
        case .name(let name): name
        case .address(let address): address.description
        }
    }

    /// `host:port`, bracketing IPv6 literals.
    public func withPort(_ port: UInt16) -> String {
        switch self {
        case .name(let name): "\(name):\(port)"
        case .address(let address): address.withPort(port)
        }
    }
}
