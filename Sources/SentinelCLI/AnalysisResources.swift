#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Sandbox
import Store
import Support

/// What a command running as the analysis (`AnalysisSandbox`) gets from root instead of opening
/// it itself: the OSV database as a lent descriptor, and its outputs written through the broker.
/// Outside an analysis each is the ordinary file.
enum AnalysisResources {
    /// The broker's name for the OSV database.
    static let osvDatabaseName = "osv-database"
    /// Root's path of the OSV database, for the analysis's messages.
    static let osvDatabasePathVariable = "SENTINEL_ANALYSIS_OSV_PATH"

    /// The OSV database root lends (`/proc/self/fd/N`, held for the process's life), or root's
    /// path of it when root has none (the scan then says what it says of a missing database).
    static func osvDatabase() -> String {
        let named = ProcessInfo.processInfo.environment[osvDatabasePathVariable] ?? "osv.sqlite"
        guard let fd = try? LaunchBrokerClient.open(resource: osvDatabaseName) else { return named }
        return "/proc/self/fd/\(fd)"
    }

    /// Writes `data` to `file`, or, in the analysis, to the output root prepared as `slot`.
    static func write(_ data: Data, slot: String, to file: PreparedOutputFile?, mode: mode_t = 0o644) throws {
        if LaunchBrokerClient.servesThisCommand {
            try LaunchBrokerClient.write(slot: slot, data)
        } else if let file {
            try file.write(data, mode: mode)
        }
    }
}

/// Root's read transaction (SQLite's shared lock) on the OSV database it lends the analysis, held
/// until the analysis ends: no `db update` commits meanwhile, so the mapping the analysis reads
/// never changes or shrinks under it (a mapping cut short ends its reader with SIGBUS, a page
/// rewritten mid-scan is a torn read). An import meanwhile waits for it (up to 15 minutes, then
/// fails as "database is locked" and changes nothing). Nil when there is no database to hold.
final class OSVReadHold {
    private let database: Database

    init?(path: String) {
        guard access(path, F_OK) == 0, let database = try? Database(path: path) else { return nil }
        do {
            try database.execute("BEGIN")
            let read = try database.prepare("SELECT count(*) FROM sqlite_master")
            _ = try read.step()
            read.reset()
        } catch {
            return nil
        }
        self.database = database
    }

    deinit { try? database.execute("ROLLBACK") }
}
