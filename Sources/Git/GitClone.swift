import Foundation
import Support

/// A fresh clone, made in the sandbox like every git run: the source is a local repository
/// (bound read-only at its own path; `file` allowed as the one transport) or an `http(s)` URL
/// (the one host reachable through the egress proxy; that transport allowed). ssh and git's
/// other transports stay refused: they would run programs (`ssh`, `ext::`) of the worker's.
public enum GitClone {
    /// Clones `source` into `parent/name` (a new directory), then detaches at `revision` when
    /// one is given. `source` is a path the caller has checked, or an http(s) URL without
    /// credentials. Errors are `SentinelError(.git)` with git's first line.
    public static func make(from source: String, into parent: String, name: String, revision: String?) throws {
        guard !name.contains("/"), !name.hasPrefix("-"), !(revision ?? "").hasPrefix("-") else {
            throw SentinelError(.invalidInput, "\(name): not a clone directory name")
        }
        var configuration: [(key: String, value: String)] = []
        var readOnly: [String] = []
        var egress: [String] = []
        var environment: [String: String] = [:]
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), source.contains("://") {
            guard scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty else {
                throw SentinelError(.invalidInput, "\(source): only http(s) remotes and local repositories are cloned")
            }
            egress = ["\(host):\(url.port ?? (scheme == "https" ? 443 : 80))"]
            configuration = [("protocol.\(scheme).allow", "always")]
            environment["GIT_ALLOW_PROTOCOL"] = scheme
        } else if source.hasPrefix("git@") {
            throw SentinelError(.invalidInput, "\(source): ssh remotes are not cloned (give an https URL)")
        } else {
            guard source.hasPrefix("/") else { throw SentinelError(.invalidInput, "\(source): not an absolute path") }
            guard !source.contains("\n") else { throw SentinelError(.invalidInput, "a repository path holds a newline") }
            readOnly = [source]
            configuration = [("protocol.file.allow", "always")]
            environment["GIT_ALLOW_PROTOCOL"] = "file"
            // The source is bound as it is (not shown as the sandbox's own, as the work tree is), so
            // git's ownership check is lifted for exactly that repository, never for `*`. git 2.39
            // reads `safe.directory` for a clone's source only from a global file: one in the
            // sandbox's own /tmp, holding that entry alone.
            let quoted = { (path: String) in
                "\"" + path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
            }
            environment["SENTINEL_GIT_GLOBAL"] = "[safe]\n\tdirectory = \(quoted(source))\n\tdirectory = \(quoted(source + "/.git"))\n"
        }
        let steps = """
            if [ -n "$SENTINEL_GIT_GLOBAL" ]; then
              printf '%s' "$SENTINEL_GIT_GLOBAL" > /tmp/global.gitconfig && export GIT_CONFIG_GLOBAL=/tmp/global.gitconfig
            fi
            git clone --quiet --no-hardlinks -- "$1" "$2" || exit $?
            [ -z "$3" ] || git -C "$2" checkout --quiet --detach "$3" --
            """
        let output = try GitSandbox.run(
            script: steps, arguments: [source, name, revision ?? ""], workspace: parent, start: GitSandbox.mountPoint,
            writable: true, input: nil, configuration: configuration, environment: environment, extraReadOnly: readOnly,
            egress: egress)
        guard output.status == 0 else { throw output.failure("clone \(source)") }
    }
}
