/// `host:port` as CONNECT targets, absolute URIs and Host headers write it.
struct EgressAuthority: Hashable, Sendable, CustomStringConvertible {
    var host: EgressHost
    var port: UInt16

    init(host: EgressHost, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `name:port`, `192.0.2.1:port` or `[::1]:port`; the port may be omitted
    /// only when `defaultPort` is given. IPv6 literals must be bracketed.
    init?(_ text: Substring, defaultPort: UInt16?) {
        var hostText = text
        var portText: Substring?
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            hostText = text[...close]
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = text.firstIndex(of: ":") {
            hostText = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let host = EgressHost(String(hostText)) else { return nil }
        if case .address(let address) = host, !address.isIPv4, !hostText.hasPrefix("[") { return nil }
        if let portText {
            guard !portText.isEmpty, portText.count <= 5, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
                let value = Int(portText), value >= 1, value <= 65535
            else { return nil }
            self.init(host: host, port: UInt16(value))
        } else {
            guard let defaultPort else { return nil }
            self.init(host: host, port: defaultPort)
        }
    }

    /// `host:port` with IPv6 bracketed.
    var description: String { host.withPort(port) }
}
