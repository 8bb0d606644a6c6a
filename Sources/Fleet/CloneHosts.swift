import Foundation
import Support

/// The hosts a worker clones remote repositories from (`--clone-host`): a job names its URL, and
/// the worker decides where it may fetch. Without a list a worker clones no remote (fail closed);
/// with one, the URL's host must be listed (`host`, any port; `host:port`; `*.domain`), compared
/// as `--dast-target` compares (the name as the URL gives it, never resolved). The sandbox's
/// egress proxy then lets the clone reach that host and port alone.
struct CloneHosts {
    let entries: [String]

    init(_ entries: [String]) { self.entries = entries.map { $0.lowercased() } }

    /// Throws `SentinelError(.invalidInput)` unless `repository` is an http(s) URL on a listed host.
    /// ssh is refused whatever the list: it would run the worker's ssh with its keys and config.
    func check(_ repository: String, worker: String) throws {
        let lowered = repository.lowercased()
        if lowered.hasPrefix("ssh://") || lowered.hasPrefix("git+ssh://") || lowered.hasPrefix("ssh+git://")
            || lowered.hasPrefix("git@")
        {
            throw SentinelError(
                .invalidInput,
                "\(repository): ssh remotes are not cloned (the worker would run ssh with its own keys and configuration); give an https URL"
            )
        }
        guard let url = URL(string: repository), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host?.lowercased(), !host.isEmpty
        else { throw SentinelError(.invalidInput, "\(repository): not a repository URL a worker clones (http, https or file)") }
        guard !entries.isEmpty else {
            throw SentinelError(
                .invalidInput,
                "\(repository): this worker clones no remote repository: it was started without --clone-host (the hosts it may clone from)"
            )
        }
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        let bare = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        guard entries.contains(where: { DASTTargetAllowList.entry($0, allows: bare, port: port) }) else {
            throw SentinelError(.invalidInput, "\(repository): not a host worker \(worker) clones from (--clone-host)")
        }
    }
}
