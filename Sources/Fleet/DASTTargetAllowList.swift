import Foundation
import Support

/// The hosts a worker's DAST jobs may scan (`--dast-target`): a job names its target, and the
/// worker decides where it may go. Without a list a worker runs no DAST job (fail closed);
/// with one, the target's host must be listed (`host`, any port; `host:port`; `*.domain`, the
/// domain's subdomains), compared in lower case as the URL names it: a name is not resolved
/// (`127.0.0.1.nip.io` is not `127.0.0.1`), so the worker's own loopback is reached only when
/// listed.
struct DASTTargetAllowList {
    let entries: [String]

    init(_ entries: [String]) { self.entries = entries.map { $0.lowercased() } }

    /// Throws `SentinelError(.invalidInput)` unless `target` is an http(s) URL on a listed host.
    func check(_ target: String?, worker: String) throws {
        guard let target else { throw SentinelError(.invalidInput, "a DAST job without a target URL") }
        guard !entries.isEmpty else {
            throw SentinelError(
                .invalidInput, "\(target): this worker runs no DAST job: it was started without --dast-target (the hosts jobs may scan)")
        }
        guard let url = URL(string: target), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty
        else { throw SentinelError(.invalidInput, "\(target): not an http(s) URL with a host") }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard entries.contains(where: { Self.entry($0, allows: bare, port: port) }) else {
            throw SentinelError(.invalidInput, "\(target): not a host worker \(worker) lets DAST jobs scan (--dast-target)")
        }
    }

    /// Whether one entry allows `host` (brackets removed) on `port`.
    static func entry(_ entry: String, allows host: String, port: Int) -> Bool {
        var name = entry
        var wanted: Int?
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            let rest = name[name.index(after: close)...]
            wanted = rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if name.filter({ $0 == ":" }).count == 1, let colon = name.lastIndex(of: ":") {
            wanted = Int(name[name.index(after: colon)...])
            name = String(name[..<colon])
        }
        if let wanted, wanted != port { return false }
        if name.hasPrefix("*.") { return host.hasSuffix(String(name.dropFirst())) && host.count > name.count - 1 }
        return name == host
    }
}
