import Digest
import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// `QueueStorage` on an SQLite file: the embedded default for one machine. Writers serialise on
/// the database lock (`BEGIN IMMEDIATE`), locks are `flock(2)` on files beside the database (a
/// killed process drops them, as a PostgreSQL session drops its advisory locks), and waiting for
/// work is a short poll: SQLite has no notifications.
final class SQLiteQueueStorage: QueueStorage {
    let database: Database
    private var locks: [String: Int32] = [:]
    /// How often a waiting worker looks again.
    static let pollInterval = 0.1
    var name: String { database.path }
    var isServer: Bool { false }

    init(path: String) throws {
        database = try Database(path: path)
        try database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL")
    }

    deinit { for descriptor in locks.values { close(descriptor) } }

    func rows(_ sql: String, _ parameters: [String?]) throws -> [QueueRow] {
        let statement = try database.prepare(Self.expand(sql))
        for (index, parameter) in parameters.enumerated() { statement.bind(Int32(index + 1), parameter) }
        let positions = QueueRow.positions(of: (0..<statement.columnCount).map { statement.columnName($0) })
        var rows: [QueueRow] = []
        while try statement.step() {
            rows.append(QueueRow(positions: positions, values: (0..<statement.columnCount).map { statement.text($0) }))
        }
        // Ends the implicit read transaction now: a WAL reader left open would keep seeing an old
        // snapshot (a decision another process committed would never show).
        statement.reset()
        return rows
    }

    func script(_ sql: String) throws { try database.execute(Self.expand(sql)) }

    func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        // Inside one already (an audit line appended in an outcome's transaction): it joins it.
        if database.isInTransaction { return try body() }
        return try database.transaction(body)
    }

    func tryLock(_ key: String) throws -> Bool {
        if locks[key] != nil { return false }
        let directory = database.path + ".locks"
        // By the checked directory's descriptor: the lock file is made where it was checked.
        let locksDirectory = try PrivateDirectory.open(directory)
        let name = SHA256.hex(key)
        let descriptor: Int32
        do throws(Errno) {
            descriptor = try locksDirectory.openFile(name, flags: O_RDWR | O_CREAT, mode: 0o600)
        } catch {
            throw SentinelError(.io, "\(directory)/\(name): open failed", errno: error)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return false
        }
        locks[key] = descriptor
        return true
    }

    func unlock(_ key: String) throws {
        guard let descriptor = locks.removeValue(forKey: key) else { return }
        close(descriptor)
    }

    func notify(_ channel: String, payload: String) throws {}

    func wait(channel: String, timeout: Double) throws -> String? {
        let seconds = min(max(timeout, 0), Self.pollInterval)
        if seconds > 0 { usleep(UInt32(seconds * 1_000_000)) }
        return nil
    }

    func waitAny(channels: [String], timeout: Double) throws -> (channel: String, payload: String)? { nil }

    func reconnectIfNeeded() throws {}

    func tableExists(_ name: String) throws -> Bool {
        let statement = try database.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1")
        statement.bind(1, name)
        defer { statement.reset() }
        return try statement.step()
    }

    /// `$N` → `?N`; `{now}` is the local clock (one machine).
    static let expand = SQLTemplates { sql in
        var text = sql.replacingOccurrences(of: "{now}", with: "((julianday('now') - 2440587.5) * 86400.0)")
            .replacingOccurrences(of: "{skip_locked}", with: "")
            .replacingOccurrences(of: "{serial}", with: "INTEGER PRIMARY KEY AUTOINCREMENT")
        text = text.replacingOccurrences(of: "$", with: "?")
        return text
    }
}
