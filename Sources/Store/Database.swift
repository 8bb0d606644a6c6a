import CSQLite
import Support

/// One SQLite connection. Store is the only module that calls the SQLite C API, so every failure
/// becomes a `SentinelError` naming the database file and the failed call.
///
/// A connection is not thread-safe (it is opened with `SQLITE_OPEN_NOMUTEX`): open one per thread
/// or task. Statements keep their connection alive.
public final class Database {
    /// The database file.
    public let path: String
    let handle: OpaquePointer

    /// Opens the database at `path`, creating the file and any missing parent directory (mode
    /// 0700: state is private to its user). A file the OS will not let us write opens read-only.
    public init(path: String) throws {
        self.path = path
        let parent = Self.parentDirectory(of: path)
        if !parent.isEmpty { try PrivateDirectory.create(parent) }
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw SentinelError(.io, "\(path): sqlite3_open_v2 failed: \(message)")
        }
        handle = db
        // Another process (an import, a scan) may hold the write lock for a while.
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more `;`-separated statements that return no rows.
    public func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw SentinelError(.io, "\(path): \(sql.prefix(40))...: \(message)")
        }
    }

    /// Compiles one statement for repeated use (bind, step, reset).
    public func prepare(_ sql: String) throws -> Statement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SentinelError(.io, "\(path): sqlite3_prepare_v2 failed: \(lastError)")
        }
        return Statement(statement, database: self)
    }

    /// The rowid of the last successful `INSERT` on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Rows changed by the last `INSERT`, `UPDATE` or `DELETE` on this connection.
    public var changes: Int { Int(sqlite3_changes64(handle)) }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The connection's latest error message.
    var lastError: String { String(cString: sqlite3_errmsg(handle)) }

    /// `dir` of `dir/file`; empty for a bare file name (the current directory exists).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
