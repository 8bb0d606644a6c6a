import CSQLite
import Support

/// A minimal SQLite connection: the only place SCA calls the C API, so every failure becomes a
/// `SentinelError` naming the database file and the failed call.
final class SQLiteConnection {
    let path: String
    private var handle: OpaquePointer?

    init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(db)
            throw SentinelError(.io, "\(path): sqlite3_open_v2 failed: \(message)")
        }
        handle = db
        sqlite3_busy_timeout(db, 5_000)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? lastError
            sqlite3_free(error)
            throw SentinelError(.io, "\(path): \(sql.prefix(40))...: \(message)")
        }
    }

    func prepare(_ sql: String) throws -> SQLiteStatement {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw SentinelError(.io, "\(path): sqlite3_prepare_v2 failed: \(lastError)")
        }
        return SQLiteStatement(statement, connection: self)
    }

    var lastError: String { String(cString: sqlite3_errmsg(handle)) }
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}

/// A prepared statement; bind by 1-based index, step, read columns by 0-based index.
final class SQLiteStatement {
    private let statement: OpaquePointer
    private let connection: SQLiteConnection
    /// SQLite must copy bound buffers because Swift's temporary buffers do not outlive the call.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    func reset() {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
    }

    func bind(_ index: Int32, _ value: String?) {
        if let value { sqlite3_bind_text(statement, index, value, -1, Self.transient) } else { sqlite3_bind_null(statement, index) }
    }

    func bind(_ index: Int32, _ value: Int64) { sqlite3_bind_int64(statement, index, value) }

    func bind(_ index: Int32, blob: [UInt8]) {
        _ = blob.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    /// Advances; true while a row is available.
    @discardableResult
    func step() throws -> Bool {
        switch sqlite3_step(statement) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SentinelError(.io, "\(connection.path): sqlite3_step failed: \(connection.lastError)")
        }
    }

    func text(_ column: Int32) -> String? {
        guard let p = sqlite3_column_text(statement, column) else { return nil }
        return String(cString: p)
    }

    func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let p = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: p, count: count))
    }
}
