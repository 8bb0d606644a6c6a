import Egress
import Foundation
import Support

/// A fresh clone, made in the sandbox like every git run: the source is a local repository
/// (bound read-only at its own path, fetched over `file://` as the one transport) or an `http(s)`
/// URL (the one host reachable through the egress proxy; that transport allowed). ssh and git's
/// other transports stay refused: they would run programs (`ssh`, `ext::`) of the worker's.
public enum GitClone {
    /// What one clone may take: its time, the bytes it writes, and whether it is shallow.
    public struct Bounds: Sendable, Hashable {
        /// The most seconds the clone and checkout may run.
        public var seconds: Double
        /// The most bytes the clone may write (objects and the checked-out tree).
        public var bytes: UInt64
        /// Fetch only the commit scanned (`--depth 1`) when the server allows it.
        public var shallow: Bool
        /// How messages name the time bound (the option that sets it, for one).
        public var timeName: String
        /// How messages name the size bound.
        public var sizeName: String

        /// Bounds; see the properties. The defaults: 10 minutes, 2 GiB, shallow.
        public init(
            seconds: Double = 600, bytes: UInt64 = 2 << 30, shallow: Bool = true, timeName: String = "the clone's time bound",
            sizeName: String = "the clone's size bound"
        ) {
            self.seconds = seconds
            self.bytes = bytes
            self.shallow = shallow
            self.timeName = timeName
            self.sizeName = sizeName
        }

        /// The time bound as messages name it (`--clone-timeout (600 s)`).
        var timeBound: String { "\(timeName) (\(Int(seconds)) s)" }
        /// The size bound as messages name it.
        var sizeBound: String { "\(sizeName) (\(bytes) bytes)" }
    }

    /// The script's status when the clone was made but holds no such revision.
    static let noRevision: Int32 = 90

    /// Clones `source` into `parent/name` (a new directory), then detaches at `revision` when
    /// one is given. `source` is a path the caller has checked, or an http(s) URL without
    /// credentials. Shallow first (a branch or tag by name, a commit id by a fetch of it), a full
    /// clone when the server refuses that (git's dumb HTTP, a commit it does not serve by id).
    /// Errors: `SentinelError(.invalidInput)` for what another attempt would meet again (no such
    /// revision or repository, the size bound), `SentinelError(.git)` for the rest (the network,
    /// a server error, the time bound).
    public static func make(from source: String, into parent: String, name: String, revision: String?, bounds: Bounds = Bounds())
        throws
    {
        guard !name.contains("/"), !name.hasPrefix("-"), !(revision ?? "").hasPrefix("-") else {
            throw SentinelError(.invalidInput, "\(name): not a clone directory name")
        }
        var configuration: [(key: String, value: String)] = []
        var readOnly: [String] = []
        var egress: [String] = []
        var environment: [String: String] = [:]
        var location = source
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), source.contains("://") {
            guard scheme == "https" || scheme == "http", let host = url.host, !host.isEmpty,
                let port = UInt16(exactly: url.port ?? (scheme == "https" ? 443 : 80))
            else {
                throw SentinelError(.invalidInput, "\(source): only http(s) remotes and local repositories are cloned")
            }
            egress = ["\(host):\(port)"] + privateAddresses(of: host).map { $0.withPort(port) }
            configuration = [("protocol.\(scheme).allow", "always")]
            environment["GIT_ALLOW_PROTOCOL"] = scheme
        } else if source.hasPrefix("git@") {
            throw SentinelError(.invalidInput, "\(source): ssh remotes are not cloned (give an https URL)")
        } else {
            guard source.hasPrefix("/") else { throw SentinelError(.invalidInput, "\(source): not an absolute path") }
            guard !source.contains("\n"), !source.contains("%") else {
                throw SentinelError(.invalidInput, "a repository path holds a newline or a %")
            }
            readOnly = [source]
            // Over `file://`, not the path: a local clone ignores --depth (and copies everything).
            location = "file://" + source
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
        environment["SENTINEL_GIT_SHALLOW"] = bounds.shallow ? "1" : ""
        // No checkout runs a filter, a hook or a submodule: the guard empties them, and a fresh
        // clone has no configuration of the source's. Each shallow try that fails is removed.
        let steps = """
            if [ -n "$SENTINEL_GIT_GLOBAL" ]; then
              printf '%s' "$SENTINEL_GIT_GLOBAL" > /tmp/global.gitconfig && export GIT_CONFIG_GLOBAL=/tmp/global.gitconfig
            fi
            if [ -n "$SENTINEL_GIT_SHALLOW" ]; then
              if [ -z "$3" ]; then
                git clone --quiet --depth 1 --no-tags -- "$1" "$2" 2>/tmp/shallow.err && exit 0
              else
                git clone --quiet --depth 1 --no-tags --branch "$3" -- "$1" "$2" 2>/tmp/shallow.err && exit 0
                rm -rf -- "$2"
                git init --quiet -- "$2" && git -C "$2" fetch --quiet --depth 1 --no-tags -- "$1" "$3" 2>/tmp/shallow.err &&
                  exec git -C "$2" checkout --quiet --detach FETCH_HEAD
              fi
              rm -rf -- "$2"
            fi
            if [ -z "$3" ]; then exec git clone --quiet -- "$1" "$2"; fi
            git clone --quiet --no-checkout -- "$1" "$2" || exit $?
            commit=$(git -C "$2" rev-parse --quiet --verify "$3^{commit}" ||
              git -C "$2" rev-parse --quiet --verify "refs/remotes/origin/$3^{commit}") || exit \(noRevision)
            exec git -C "$2" checkout --quiet --detach "$commit"
            """
        let output = try GitSandbox.run(
            script: steps, arguments: [location, name, revision ?? ""], workspace: parent, start: GitSandbox.mountPoint,
            writable: true, input: nil, configuration: configuration, environment: environment, extraReadOnly: readOnly,
            egress: egress, bounds: bounds)
        guard output.status == 0 else { throw failure(output, source: source, revision: revision, bounds: bounds) }
    }

    /// The private addresses (loopback, RFC 1918...) `host` resolves to now, when it is a name: the
    /// proxy refuses private space unless an entry names it, and the caller chose this host (the
    /// fleet's `--clone-host`), as an internal git server often is. The proxy resolves the name
    /// again and refuses any address not listed, so a name that changes its answer is still refused.
    static func privateAddresses(of host: String) -> [IPAddress] {
        guard IPAddress(host) == nil, !host.hasPrefix("["), let addresses = try? SystemResolver().resolve(host) else { return [] }
        return addresses.filter(ReservedRanges.contains)
    }

    /// Why a clone failed, classed: the one place that tells a failure another attempt would meet
    /// again (`.invalidInput`) from one it may not (`.git`: the network, a server's 5xx).
    static func failure(_ output: GitRunner.Output, source: String, revision: String?, bounds: Bounds) -> SentinelError {
        if output.status == noRevision {
            return SentinelError(.invalidInput, "\(source): no revision '\(revision ?? "")' in the repository")
        }
        let text = output.stderr.lowercased()
        // A file beyond RLIMIT_FSIZE ends git with SIGXFSZ (the shell's 128 + 25); a full tmpfs is ENOSPC.
        if output.status == 153 || text.contains("no space left on device") || text.contains("file too large") {
            return SentinelError(.invalidInput, "git clone \(source): larger than \(bounds.sizeBound)")
        }
        let permanent = [
            "not found", "does not appear to be a git repository", "not a git repository", "returned error: 401",
            "returned error: 403", "returned error: 404", "returned error: 410", "authentication failed", "could not read username",
        ]
        let failure = output.failure("clone \(source)")
        return permanent.contains(where: text.contains) ? SentinelError(.invalidInput, failure.message) : failure
    }
}
