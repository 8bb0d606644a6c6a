import Support

extension WebURL {
    /// The URL a scan targets, as the user names it: http or https, a host, no user info; a
    /// fragment is dropped (it never reaches the server). What a DAST tool is given.
    /// - Throws: `SentinelError(.invalidInput)` naming the URL and the problem.
    package init(target text: String) throws {
        func bad(_ why: String) -> SentinelError { SentinelError(.invalidInput, "\(text): \(why)") }
        let parts = URLReference(URLText.trimmed(text))
        guard let scheme = parts.scheme else { throw bad("not a URL") }
        guard scheme == "http" || scheme == "https" else { throw bad("not an http or https URL") }
        let authority = Substring(parts.authority ?? "")
        let hostPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        var host = hostPort
        var portText: Substring = ""
        if hostPort.hasPrefix("["), let close = hostPort.firstIndex(of: "]") {
            host = hostPort[...close]
            portText = hostPort[hostPort.index(after: close)...].drop { $0 == ":" }
        } else if let colon = hostPort.firstIndex(of: ":") {
            host = hostPort[..<colon]
            portText = hostPort[hostPort.index(after: colon)...]
        }
        guard !host.isEmpty else { throw bad("the URL has no host") }
        guard !authority.contains("@") else { throw bad("credentials in the URL are not supported") }
        if !portText.isEmpty, portText.utf8.allSatisfy(URLText.isDigit), let port = Int(portText), !(1...65535).contains(port) {
            throw bad("port \(port) is not in 1...65535")
        }
        guard let url = WebURL(text) else { throw bad("not a URL") }
        self = url.with(fragment: nil)
    }

    /// `host:port` (`[::1]:8080` for IPv6), the egress allow entry for this URL's host alone.
    package var egressEntry: String { "\(host):\(port)" }
}
