import Foundation
import Support
import Testing

@testable import Store
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct DatabaseTests {
    @Test func opensAndCreatesMissingDirectoriesPrivately() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/state/nested/test.sqlite"
        _ = try Database(path: path)
        #expect(FileManager.default.fileExists(atPath: path))
        for directory in [root + "/state", root + "/state/nested"] {
            var info = stat()
            #expect(stat(directory, &info) == 0)
            #expect(info.st_mode & 0o777 == 0o700, "\(directory)")
        }
    }

    @Test func leavesAnExistingDirectoryAlone() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(chmod(root, 0o755) == 0)
        _ = try Database(path: root + "/test.sqlite")
        var info = stat()
        #expect(stat(root, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o755)
    }

    @Test func aFileInTheWayIsAClearError() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = FileManager.default.createFile(atPath: root + "/state", contents: Data())
        #expect(throws: SentinelError(.io, "\(root)/state: exists and is not a directory", errno: Errno(rawValue: ENOTDIR))) {
            _ = try Database(path: root + "/state/test.sqlite")
        }
    }

    @Test func aBareFileNameOpensInTheCurrentDirectory() {
        #expect(Database.parentDirectory(of: "x.sqlite") == "")
        #expect(Database.parentDirectory(of: "/x.sqlite") == "/")
        #expect(Database.parentDirectory(of: "a/b/x.sqlite") == "a/b")
    }

    /// Every typed bind reads back as itself, including the values SQLite could take for NULL.
    @Test func typedBindsRoundTrip() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let db = try Database(path: root + "/test.sqlite")
        try db.execute("CREATE TABLE t(s TEXT, i INTEGER, d REAL, b BLOB, n)")
        let insert = try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?)")
        let rows: [(String?, Int64?, Double?, [UInt8]?)] = [
            ("héllo", Int64.max, 2.5, [0, 1, 255]),
            ("", Int64.min, -0.0, []),
            ("a\u{0}b", 0, Double.greatestFiniteMagnitude, [7]),
            (nil, nil, nil, nil),
        ]
        for row in rows {
            insert.reset()
            insert.bind(1, row.0)
            insert.bind(2, row.1)
            insert.bind(3, row.2)
            insert.bind(4, blob: row.3)
            insert.bindNull(5)
            try insert.run()
            #expect(db.changes == 1)
        }
        #expect(db.lastInsertRowID == 4)
        let select = try db.prepare("SELECT s, i, d, b, n, typeof(s), typeof(b) FROM t ORDER BY rowid")
        #expect(select.columnCount == 7)
        for row in rows {
            #expect(try select.step())
            #expect(select.text(0) == row.0)
            #expect(select.isNull(1) == (row.1 == nil))
            #expect(select.int(1) == row.1 ?? 0)
            #expect(select.double(2) == row.2 ?? 0)
            #expect(select.blob(3) == row.3 ?? [])
            #expect(select.isNull(4))
            #expect(select.text(5) == (row.0 == nil ? "null" : "text"), "an empty string is text, not NULL")
            #expect(select.text(6) == (row.3 == nil ? "null" : "blob"), "an empty blob is a blob, not NULL")
        }
        #expect(try select.step() == false)
    }

    @Test func intBindsAndNamedIndexes() throws {
        let db = try Database(path: ":memory:")
        let q = try db.prepare("SELECT ?1 + ?2, ?1")
        q.bind(1, 40)
        q.bind(2, Int?.some(2))
        #expect(try q.step())
        #expect(q.int(0) == 42 && q.int(1) == 40)
    }

    /// A refused bind is not lost: the next step throws it, naming the file and the parameter.
    @Test func aBadBindThrowsAtStep() throws {
        let db = try Database(path: ":memory:")
        let q = try db.prepare("SELECT ?")
        q.bind(3, "x")
        #expect(throws: SentinelError(.io, ":memory:: sqlite3_bind_text64 failed for parameter 3: column index out of range")) {
            try q.step()
        }
        q.reset()
        q.bind(1, "x")
        #expect(try q.step() && q.text(0) == "x")
    }

    @Test func errorsNameTheFileAndTheCall() throws {
        let db = try Database(path: ":memory:")
        #expect(throws: SentinelError(.io, ":memory:: sqlite3_prepare_v2 failed: no such table: missing")) {
            _ = try db.prepare("SELECT * FROM missing")
        }
        try db.execute("CREATE TABLE t(x INTEGER NOT NULL)")
        let insert = try db.prepare("INSERT INTO t VALUES (NULL)")
        #expect(throws: SentinelError(.io, ":memory:: sqlite3_step failed: NOT NULL constraint failed: t.x")) {
            try insert.run()
        }
        #expect(throws: SentinelError.self) { try db.execute("NOT SQL") }
    }
}
