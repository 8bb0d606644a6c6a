import CSQLite
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection. Store is the only module that calls the SQLite C API, so every failure
/// becomes a `SentinelError` naming the database file and the failed call.
///
/// A connection is not thread-safe (it is opened with `SQLITE_OPEN_NOMUTEX`): open one per thread
/// or task. Statements keep their connection alive.
public final class Database {
    /// The database file.
    public let path: String
    let handle: OpaquePointer
    /// The read-only mapping a lent database is read from (`init(mapping:name:)`), unmapped last.
    private var mapping: (UnsafeMutableRawPointer, Int)?

    /// Opens the database at `path`, creating the file and any missing parent directory (mode
    /// 0700: state is private to its user). A file the OS will not let us write opens read-only.
    /// The directory must be private (`PrivateDirectory`, else `.invalidInput`), and the file is
    /// opened only as itself: a link at its name is refused (`.invalidInput`), never followed.
    public init(path: String) throws {
        self.path = path
        var db: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_NOFOLLOW
        let rc = sqlite3_open_v2(try Self.checkedPath(path), &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            let symlink = db.map { sqlite3_extended_errcode($0) == Self.cantOpenSymlink } ?? false
            sqlite3_close(db)
            if symlink {
                throw SentinelError(.invalidInput, "\(path): a symbolic link; a state file is opened only as itself (move the link aside)")
            }
            throw SentinelError(.io, "\(path): sqlite3_open_v2 failed: \(message)")
        }
        handle = db
        // Another process (an import, a scan) may hold the write lock for a while.
        sqlite3_busy_timeout(db, 5_000)
    }

    /// Reads the database in `fd`, read-only, from a shared read-only mapping of it: no lock,
    /// no journal, no path (a file lent by descriptor cannot be reopened by one it may not
    /// open). For a database another process lends for reading (the analysis sandbox's OSV
    /// index); `name` names it in messages. The descriptor may be closed after this returns.
    public init(mapping fd: Int32, name: String) throws {
        path = name
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            throw SentinelError(.io, "\(name): not a regular file")
        }
        let size = Int(info.st_size)
        var db: OpaquePointer?
        guard sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let db else {
            sqlite3_close(db)
            throw SentinelError(.io, "\(name): sqlite3_open_v2 failed")
        }
        var mapped: (UnsafeMutableRawPointer, Int)?
        if size > 0 {
            guard let base = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), base != MAP_FAILED else {
                sqlite3_close(db)
                throw SentinelError(.io, "\(name): cannot map: \(Errno.current)", errno: .current)
            }
            let rc = sqlite3_deserialize(
                db, "main", base.assumingMemoryBound(to: UInt8.self), Int64(size), Int64(size),
                UInt32(SQLITE_DESERIALIZE_READONLY))
            guard rc == SQLITE_OK else {
                let message = String(cString: sqlite3_errmsg(db))
                sqlite3_close(db)
                munmap(base, size)
                throw SentinelError(.io, "\(name): sqlite3_deserialize failed: \(message)")
            }
            mapped = (base, size)
        }
        handle = db
        mapping = mapped
    }

    deinit {
        sqlite3_close_v2(handle)
        if let mapping { munmap(mapping.0, mapping.1) }
    }

    /// How long a statement waits for another connection's lock before it fails as busy
    /// (5 s from `init(path:)`).
    public func waitForLocks(seconds: Int) {
        sqlite3_busy_timeout(handle, Int32(clamping: seconds * 1000))
    }

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

    /// `SQLITE_CANTOPEN_SYMLINK` (`SQLITE_CANTOPEN | 6 << 8`).
    static let cantOpenSymlink = SQLITE_CANTOPEN | 6 << 8

    /// The path SQLite is to open for `path`: through its checked directory's canonical path,
    /// which holds no link, so that SQLITE_OPEN_NOFOLLOW refuses one at the file's own name (its
    /// -wal, -shm and -journal files SQLite opens with O_NOFOLLOW itself). SQLite's in-memory and
    /// temporary databases (`:memory:`, ``) have no file and pass as they are.
    static func checkedPath(_ path: String) throws -> String {
        guard !path.isEmpty, path != ":memory:" else { return path }
        let parent = parentDirectory(of: path).isEmpty ? "." : parentDirectory(of: path)
        let directory = try PrivateDirectory.open(parent)
        let canonical = try canonicalPath(of: directory, named: parent)
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        return canonical + (canonical.hasSuffix("/") ? "" : "/") + name
    }

    /// The path without links of `directory` (opened from `name`), checked to be that same directory.
    static func canonicalPath(of directory: DirectoryDescriptor, named name: String) throws -> String {
        guard let resolved = realpath(name, nil) else {
            throw SentinelError(.io, "\(name): realpath failed: \(Errno.current)", errno: .current)
        }
        defer { free(resolved) }
        var info = stat()
        guard stat(resolved, &info) == 0, let opened = try? directory.status(), info.st_dev == opened.st_dev,
            info.st_ino == opened.st_ino
        else {
            throw SentinelError(.io, "\(name): replaced while it was opened")
        }
        return String(cString: resolved)
    }

    /// `dir` of `dir/file`; empty for a bare file name (the current directory exists).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
