import Foundation
import Support

/// The URL a DAST adapter scans, checked once: http or https, a host, no user info. It also
/// gives the egress entry that reaches exactly its host and port.
public struct WebTargetURL: Sendable, Hashable {
    /// The URL as the tools get it (a bare origin gets a `/` path).
    public let url: String
    /// `http` or `https`.
    public let scheme: String
    /// The host as written (IPv6 literals without brackets).
    public let host: String
    /// The port, explicit or the scheme's default.
    public let port: Int

    /// Parses `text`.
    /// - Throws: `SentinelError(.invalidInput)` naming the URL and the problem.
    public init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        func bad(_ why: String) -> SentinelError { SentinelError(.invalidInput, "\(text): \(why)") }
        guard var parts = URLComponents(string: trimmed), let scheme = parts.scheme?.lowercased() else {
            throw bad("not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw bad("not an http or https URL") }
        guard let host = parts.host, !host.isEmpty else { throw bad("the URL has no host") }
        guard parts.user == nil, parts.password == nil else {
            throw bad("credentials in the URL are not supported")
        }
        if let port = parts.port, !(1...65535).contains(port) { throw bad("port \(port) is not in 1...65535") }
        if parts.path.isEmpty { parts.path = "/" }
        parts.fragment = nil
        self.url = parts.string ?? trimmed
        self.scheme = scheme
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        self.port = parts.port ?? (scheme == "https" ? 443 : 80)
    }

    /// `host:port` (`[::1]:8080` for IPv6), the egress allow entry for this target alone.
    public var egressEntry: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// `scheme://host[:port]`, without a path.
    public var origin: String {
        let defaultPort = scheme == "https" ? 443 : 80
        let name = host.contains(":") ? "[\(host)]" : host
        return port == defaultPort ? "\(scheme)://\(name)" : "\(scheme)://\(name):\(port)"
    }
}
