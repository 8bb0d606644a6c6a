/// SOCKS5 (RFC 1928) messages: the method greeting, the request, and replies. Only the
/// "no authentication" method and the CONNECT command are served.
enum SOCKS5 {
    /// Reply codes (RFC 1928 §6).
    enum Reply: UInt8, Sendable {
        case succeeded = 0x00
        case generalFailure = 0x01
        case notAllowed = 0x02
        case networkUnreachable = 0x03
        case hostUnreachable = 0x04
        case connectionRefused = 0x05
        case ttlExpired = 0x06
        case commandNotSupported = 0x07
        case addressTypeNotSupported = 0x08
    }

    /// The request commands.
    static let connectCommand: UInt8 = 0x01

    /// A parsed request. `destination` is `nil` when the command is not CONNECT: the
    /// proxy then answers `commandNotSupported` without looking at the address.
    struct Request: Hashable, Sendable {
        var command: UInt8
        var destination: EgressAuthority?
    }

    /// Parses the greeting `05 N methods...`; completes with the offered methods.
    static func parseGreeting(_ bytes: ArraySlice<UInt8>) -> ProxyParseOutcome<[UInt8]> {
        guard let version = bytes.first else { return .incomplete }
        guard version == 5 else { return .invalid(ProxyParseFailure("not SOCKS version 5", status: 0xFF)) }
        guard bytes.count >= 2 else { return .incomplete }
        let count = Int(bytes[bytes.startIndex + 1])
        guard count > 0 else { return .invalid(ProxyParseFailure("greeting offers no methods", status: 0xFF)) }
        guard bytes.count >= 2 + count else { return .incomplete }
        let start = bytes.startIndex + 2
        return .complete(Array(bytes[start..<(start + count)]), consumed: 2 + count)
    }

    /// Parses `05 CMD 00 ATYP ADDR PORT`. Domain names that spell an IP address are
    /// read as that address, so `::ffff:127.0.0.1` sent as a name is still a literal.
    static func parseRequest(_ bytes: ArraySlice<UInt8>) -> ProxyParseOutcome<Request> {
        guard bytes.count >= 4 else {
            if let version = bytes.first, version != 5 {
                return .invalid(ProxyParseFailure("not SOCKS version 5", status: Int(Reply.generalFailure.rawValue)))
            }
            return .incomplete
        }
        let base = bytes.startIndex
        guard bytes[base] == 5, bytes[base + 2] == 0 else {
            return .invalid(ProxyParseFailure("malformed SOCKS5 request", status: Int(Reply.generalFailure.rawValue)))
        }
        let command = bytes[base + 1]
        let addressType = bytes[base + 3]
        let addressLength: Int
        let addressStart: Int
        switch addressType {
        case 0x01:
            addressLength = 4
            addressStart = base + 4
        case 0x04:
            addressLength = 16
            addressStart = base + 4
        case 0x03:
            guard bytes.count >= 5 else { return .incomplete }
            addressLength = Int(bytes[base + 4])
            addressStart = base + 5
            guard addressLength > 0 else {
                return .invalid(ProxyParseFailure("empty domain name", status: Int(Reply.generalFailure.rawValue)))
            }
        default:
            return .invalid(
                ProxyParseFailure(
                    "address type \(addressType) not supported", status: Int(Reply.addressTypeNotSupported.rawValue)))
        }
        let portStart = addressStart + addressLength
        guard bytes.endIndex >= portStart + 2 else { return .incomplete }
        let consumed = portStart + 2 - base
        guard command == connectCommand else {
            return .complete(Request(command: command, destination: nil), consumed: consumed)
        }
        let port = UInt16(bytes[portStart]) << 8 | UInt16(bytes[portStart + 1])
        guard port != 0 else {
            return .invalid(ProxyParseFailure("port 0", status: Int(Reply.generalFailure.rawValue)))
        }
        let raw = Array(bytes[addressStart..<portStart])
        let host: EgressHost?
        if addressType == 0x03 {
            host = raw.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) ? EgressHost(String(decoding: raw, as: UTF8.self)) : nil
        } else {
            host = IPAddress(bytes: raw).map(EgressHost.address)
        }
        guard let host else {
            return .invalid(ProxyParseFailure("invalid destination name", status: Int(Reply.generalFailure.rawValue)))
        }
        return .complete(
            Request(command: command, destination: EgressAuthority(host: host, port: port)), consumed: consumed)
    }

    /// The reply `05 REP 00 ATYP BND.ADDR BND.PORT`; the bound address is 0.0.0.0:0 when unknown.
    static func reply(_ code: Reply, bound: (address: IPAddress, port: UInt16)? = nil) -> [UInt8] {
        let address = bound?.address ?? IPAddress(bytes: [0, 0, 0, 0])!
        let port = bound?.port ?? 0
        return [5, code.rawValue, 0, address.isIPv4 ? 0x01 : 0x04] + address.bytes + [
            UInt8(port >> 8), UInt8(port & 0xFF),
        ]
    }
}
