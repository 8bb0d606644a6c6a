import CSQLite
import Support

/// A prepared statement: bind parameters by 1-based index, `step` through rows, read columns by
/// 0-based index, `reset` to run it again.
///
/// A bind that SQLite refuses (an index out of range, a value too big) is kept and thrown by the
/// next `step`, so call sites read as plain assignments and no failure is lost.
public final class Statement {
    private let handle: OpaquePointer
    /// The connection; SQLite requires statements to be finalized before it closes.
    public let database: Database
    private var bindFailure: SentinelError?

    init(_ handle: OpaquePointer, database: Database) {
        self.handle = handle
        self.database = database
    }

    deinit { sqlite3_finalize(handle) }

    /// Rewinds the statement and clears every binding.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        bindFailure = nil
    }

    // MARK: Binding

    /// Binds text, or NULL for nil.
    public func bind(_ index: Int32, _ value: String?) {
        guard var value else { return bindNull(index) }
        let rc: Int32 = value.withUTF8 { utf8 in
            // An empty buffer may have no base address, which SQLite would take for NULL.
            guard let base = utf8.baseAddress, !utf8.isEmpty else {
                return sqlite3_bind_text(handle, index, "", 0, sentinel_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                sqlite3_bind_text64(handle, index, $0, UInt64(utf8.count), sentinel_sqlite_transient(), UInt8(SQLITE_UTF8))
            }
        }
        check(rc, "sqlite3_bind_text64", index)
    }

    /// Binds a 64-bit integer, or NULL for nil.
    public func bind(_ index: Int32, _ value: Int64?) {
        guard let value else { return bindNull(index) }
        check(sqlite3_bind_int64(handle, index, value), "sqlite3_bind_int64", index)
    }

    /// Binds an integer, or NULL for nil.
    public func bind(_ index: Int32, _ value: Int?) {
        bind(index, value.map(Int64.init))
    }

    /// Binds a double, or NULL for nil.
    public func bind(_ index: Int32, _ value: Double?) {
        guard let value else { return bindNull(index) }
        check(sqlite3_bind_double(handle, index, value), "sqlite3_bind_double", index)
    }

    /// Binds bytes as a BLOB (an empty array is a zero-length BLOB, not NULL), or NULL for nil.
    public func bind(_ index: Int32, blob: [UInt8]?) {
        guard let blob else { return bindNull(index) }
        let rc = blob.withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob64(handle, index, base, UInt64(bytes.count), sentinel_sqlite_transient())
        }
        check(rc, "sqlite3_bind_blob64", index)
    }

    /// Binds NULL.
    public func bindNull(_ index: Int32) {
        check(sqlite3_bind_null(handle, index), "sqlite3_bind_null", index)
    }

    private func check(_ rc: Int32, _ call: String, _ index: Int32) {
        guard rc != SQLITE_OK, bindFailure == nil else { return }
        bindFailure = SentinelError(.io, "\(database.path): \(call) failed for parameter \(index): \(database.lastError)")
    }

    // MARK: Running

    /// Advances to the next row; false when the statement is done.
    @discardableResult
    public func step() throws -> Bool {
        if let bindFailure { throw bindFailure }
        switch sqlite3_step(handle) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SentinelError(.io, "\(database.path): sqlite3_step failed: \(database.lastError)")
        }
    }

    /// Steps until the statement is done, ignoring any rows (an `INSERT`, `UPDATE`, `DELETE`).
    public func run() throws {
        while try step() {}
    }

    // MARK: Columns of the current row

    /// Number of columns in a result row.
    public var columnCount: Int32 { sqlite3_column_count(handle) }

    /// The column's name: its `AS` alias, else the name SQLite gives it ("" when out of range).
    public func columnName(_ column: Int32) -> String {
        sqlite3_column_name(handle, column).map { String(cString: $0) } ?? ""
    }

    /// True when the column holds NULL.
    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// The column as text (UTF-8, embedded NULs kept); nil for NULL.
    public func text(_ column: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, column) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as a 64-bit integer (0 for NULL).
    public func int(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    /// The column as a double (0 for NULL).
    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    /// The column's bytes (empty for NULL or a zero-length BLOB).
    public func blob(_ column: Int32) -> [UInt8] {
        guard let bytes = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
