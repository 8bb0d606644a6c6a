import Foundation

/// Where Sentinel keeps state (the OSV index; later heal memory, the approval queue, rate limits):
/// `$SENTINEL_HOME` when it is set, else `.sentinel/` in the current directory, so that scanning
/// or healing a repository can leave its tree untouched.
public struct StateDirectory: Sendable, Hashable {
    /// The directory (it may not exist yet: opening a database creates it, mode 0700).
    public let path: String

    /// The state directory at `path`.
    public init(path: String) {
        self.path = path
    }

    /// The state directory for this process's environment and current directory.
    public static var current: StateDirectory {
        resolve(
            environment: ProcessInfo.processInfo.environment,
            currentDirectory: FileManager.default.currentDirectoryPath)
    }

    /// `$SENTINEL_HOME` when set and non-empty, else `currentDirectory/.sentinel`.
    public static func resolve(environment: [String: String], currentDirectory: String) -> StateDirectory {
        if let home = environment["SENTINEL_HOME"], !home.isEmpty { return StateDirectory(path: home) }
        return StateDirectory(path: currentDirectory + "/.sentinel")
    }

    /// The file `name` inside the directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    /// The offline OSV vulnerability database.
    public var osvDatabase: String { file("osv.sqlite") }

    /// Creates the directory (and missing parents) with mode 0700; an existing one is left as it is.
    public func create() throws {
        try PrivateDirectory.create(path)
    }
}
