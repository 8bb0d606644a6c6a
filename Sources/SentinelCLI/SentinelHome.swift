import Foundation

/// Where Sentinel keeps state: `$SENTINEL_HOME`, else `.sentinel/` in the current directory.
enum SentinelHome {
    static var directory: String {
        if let home = ProcessInfo.processInfo.environment["SENTINEL_HOME"], !home.isEmpty { return home }
        return FileManager.default.currentDirectoryPath + "/.sentinel"
    }

    static var databasePath: String { directory + "/osv.sqlite" }
}
