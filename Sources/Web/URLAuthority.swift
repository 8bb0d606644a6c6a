/// The validated authority of an `http`/`https` URL: `[userinfo@]host[:port]`. Hosts are
/// restricted to what DNS names and IP literals use, so a hostile `evil.com\@target` or a host
/// with spaces is refused rather than guessed at.
struct URLAuthority: Sendable, Hashable {
    /// The raw user information, if any.
    var userInfo: String?
    /// The lowercased host; IPv6 literals keep their brackets.
    var host: String
    /// The explicit port, or the scheme's default.
    var port: Int

    /// Parses `text` (the part between `//` and the path); nil when it is not a valid authority.
    init?(_ text: String, scheme: String) {
        var hostPort = Substring(text)
        if let at = text.lastIndex(of: "@") {
            let user = text[..<at]
            guard user.utf8.allSatisfy(Self.isUserInfoByte) else { return nil }
            userInfo = String(user)
            hostPort = text[text.index(after: at)...]
        }
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { return nil }
            let literal = hostPort[hostPort.index(after: hostPort.startIndex)..<close]
            guard Self.isIPv6Literal(literal) else { return nil }
            host = "[" + literal.lowercased() + "]"
            let rest = hostPort[hostPort.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else {
            let colon = hostPort.firstIndex(of: ":")
            let name = hostPort[..<(colon ?? hostPort.endIndex)]
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isHostByte) else { return nil }
            host = name.lowercased()
            if let colon { portText = hostPort[hostPort.index(after: colon)...] }
        }
        guard let port = Self.port(portText, scheme: scheme) else { return nil }
        self.port = port
    }

    /// The port of `text` (digits only, 0...65535); the default when absent or empty.
    private static func port(_ text: Substring?, scheme: String) -> Int? {
        guard let text, !text.isEmpty else { return WebURL.defaultPort(scheme) }
        guard text.utf8.count <= 5, text.utf8.allSatisfy(URLText.isDigit), let value = Int(text), value <= 65_535 else {
            return nil
        }
        return value
    }

    /// Letters, digits, `-`, `.`, `_` and `~`: DNS names and IPv4 addresses.
    private static func isHostByte(_ byte: UInt8) -> Bool { URLText.isUnreserved(byte) }

    /// RFC 3986 `userinfo`: unreserved, percent-escapes, sub-delims and `:`.
    private static func isUserInfoByte(_ byte: UInt8) -> Bool {
        URLText.isUnreserved(byte) || URLText.isSubDelimiter(byte) || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "%")
    }

    /// Hex digits, `:` and `.` (an embedded IPv4 tail), with at least two colons.
    private static func isIPv6Literal(_ text: Substring) -> Bool {
        guard text.utf8.count <= 45, text.utf8.filter({ $0 == UInt8(ascii: ":") }).count >= 2 else { return false }
        return text.utf8.allSatisfy { URLText.hexValue($0) != nil || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }
    }
}
