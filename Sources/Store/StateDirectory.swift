import Foundation
import Support

/// Where Sentinel keeps state: `$SENTINEL_HOME` for everything when it is set, else the XDG base
/// directories -- durable state (proposals, audit log, heal memory, the autonomy database, kill
/// switch, notifications) in `$XDG_STATE_HOME/sentinel` (default `~/.local/state/sentinel`), the
/// re-downloadable OSV index in `$XDG_CACHE_HOME/sentinel` (default `~/.cache/sentinel`). Never
/// the current directory: scanning or healing a repository leaves its tree untouched, and a
/// proposal made in one directory is seen from any other.
public struct StateDirectory: Sendable, Hashable {
    /// The durable state's directory (it may not exist yet: opening a database creates it, mode 0700).
    public let path: String
    /// The cache's directory, for data `sentinel db update` can fetch again.
    public let cachePath: String

    /// Where heal snapshots a repository and builds its candidate trees: owner-only, on the
    /// state's volume, swept by a later heal and by `sentinel doctor` when abandoned.
    public var scratchPath: String { path + "/tmp" }

    /// Where root makes the scratch directories it lends to an unprivileged analysis (a heal's
    /// snapshot and candidate trees, a fleet worker's clones): beside the state directory, on its
    /// volume, owner-only -- not in a shared `$TMPDIR`, and not inside the state directory, which
    /// is lent too (lends do not nest). Swept by the next launch and `sentinel doctor`.
    public var launcherScratchPath: String { path + ".scratch" }

    /// Everything in one directory at `path` (`$SENTINEL_HOME`, a test's own state).
    public init(path: String) {
        self.path = path
        cachePath = path
    }

    /// Durable state at `path`, the cache at `cachePath`.
    public init(path: String, cachePath: String) {
        self.path = path
        self.cachePath = cachePath
    }

    /// The state directory for this process's environment; throws when neither `SENTINEL_HOME`
    /// nor the XDG variables nor `HOME` say where it is.
    public static var current: StateDirectory {
        get throws { try resolve(environment: ProcessInfo.processInfo.environment) }
    }

    /// `$SENTINEL_HOME` when set and non-empty, else the XDG directories (see the type).
    public static func resolve(environment: [String: String]) throws -> StateDirectory {
        if let home = environment["SENTINEL_HOME"], !home.isEmpty { return StateDirectory(path: home) }
        return StateDirectory(
            path: try base("XDG_STATE_HOME", else: ".local/state", environment: environment) + "/sentinel",
            cachePath: try base("XDG_CACHE_HOME", else: ".cache", environment: environment) + "/sentinel")
    }

    /// `$variable` when it is an absolute path (the XDG spec ignores empty and relative values),
    /// else `$HOME/fallback`.
    static func base(_ variable: String, else fallback: String, environment: [String: String]) throws -> String {
        if let value = environment[variable], value.hasPrefix("/") { return trimmed(value) }
        guard let home = environment["HOME"], home.hasPrefix("/") else {
            throw SentinelError(
                .invalidInput,
                "HOME is not set to an absolute path, so there is no \(variable) default: set HOME, \(variable) or SENTINEL_HOME")
        }
        return trimmed(home) + "/" + fallback
    }

    /// `path` without trailing slashes (`/` becomes empty, so that joining adds one).
    private static func trimmed(_ path: String) -> String {
        var path = path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The file `name` inside the durable state's directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    /// The offline OSV vulnerability database, in the cache.
    public var osvDatabase: String { cachePath + "/" + Self.osvDatabaseName }

    /// The OSV database's file name.
    public static let osvDatabaseName = "osv.sqlite"

    /// Creates the directory (and missing parents) with mode 0700; an existing one is left as it is.
    public func create() throws {
        try PrivateDirectory.create(path)
    }
}
