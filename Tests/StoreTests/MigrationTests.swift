import Foundation
import Support
import Testing

@testable import Store
import TestSupport

@Suite struct MigrationTests {
    /// A store whose migrations log their order into the database.
    static func schema(_ store: String = "notes", steps: Int, failAt: Int? = nil, adopts: Bool = false) -> Schema {
        Schema(
            store: store, title: "\(store) store",
            migrations: (1...steps).map { version in
                Migration(version: version) { db in
                    try db.execute("CREATE TABLE IF NOT EXISTS \(store)_log(version INTEGER)")
                    try db.execute("INSERT INTO \(store)_log VALUES (\(version))")
                    if version == failAt { throw SentinelError(.io, "migration \(version) failed") }
                }
            },
            adoptsUserVersion: adopts, remedy: "delete it")
    }

    func log(_ db: Database, _ store: String = "notes") throws -> [Int64] {
        let q = try db.prepare("SELECT version FROM \(store)_log ORDER BY rowid")
        var versions = [Int64]()
        while try q.step() { versions.append(q.int(0)) }
        return versions
    }

    @Test func runsEachMigrationOnceInOrder() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/s.sqlite"
        #expect(try Database(path: path).migrate(Self.schema(steps: 2)) == 0)
        let db = try Database(path: path)
        #expect(try db.migrate(Self.schema(steps: 2)) == 2, "already current: nothing runs")
        #expect(try db.migrate(Self.schema(steps: 4)) == 2)
        #expect(try log(db) == [1, 2, 3, 4])
        #expect(try db.schemaVersion(of: Self.schema(steps: 4)) == 4)
    }

    @Test func aFailedMigrationLeavesTheFileAsItWas() throws {
        let db = try Database(path: ":memory:")
        try db.migrate(Self.schema(steps: 1))
        #expect(throws: SentinelError(.io, "migration 3 failed")) { try db.migrate(Self.schema(steps: 3, failAt: 3)) }
        #expect(try db.schemaVersion(of: Self.schema(steps: 3)) == 1)
        #expect(try log(db) == [1], "migration 2 was rolled back with 3")
        #expect(try db.migrate(Self.schema(steps: 3)) == 1)
        #expect(try log(db) == [1, 2, 3])
    }

    @Test func refusesAFileNewerThanThisBuild() throws {
        let db = try Database(path: ":memory:")
        try db.migrate(Self.schema(steps: 3))
        #expect(throws: SentinelError(.invalidInput, ":memory:: notes store schema 3 is not supported (expected 2); delete it")) {
            try db.migrate(Self.schema(steps: 2))
        }
    }

    @Test func storesSharingAFileKeepTheirOwnVersions() throws {
        let db = try Database(path: ":memory:")
        try db.migrate(Self.schema("memory", steps: 3))
        try db.migrate(Self.schema("queue", steps: 1))
        #expect(try db.schemaVersion(of: Self.schema("memory", steps: 3)) == 3)
        #expect(try db.schemaVersion(of: Self.schema("queue", steps: 1)) == 1)
        #expect(try db.migrate(Self.schema("queue", steps: 2)) == 1)
        #expect(try log(db, "memory") == [1, 2, 3] && log(db, "queue") == [1, 2])
    }

    /// Files from before `store_versions` kept their version in `PRAGMA user_version`.
    @Test func adoptsAndKeepsUpTheUserVersion() throws {
        let db = try Database(path: ":memory:")
        try db.execute("CREATE TABLE notes_log(version INTEGER); PRAGMA user_version = 2")
        #expect(try db.migrate(Self.schema(steps: 3, adopts: true)) == 2)
        #expect(try log(db) == [3])
        let pragma = try db.prepare("PRAGMA user_version")
        #expect(try pragma.step() && pragma.int(0) == 3)
        #expect(try db.schemaVersion(of: Self.schema(steps: 3)) == 3, "the row is written too")
    }

    /// A current file is only read (a read-only copy, a CI cache, still opens): here another
    /// connection holds the write lock, and opening must not wait for it.
    @Test func aCurrentFileIsOnlyRead() throws {
        let root = try TemporaryDirectory.make("store")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/s.sqlite"
        let writer = try Database(path: path)
        try writer.migrate(Self.schema(steps: 2))
        try writer.transaction {
            try writer.execute("INSERT INTO notes_log VALUES (99)")
            let reader = try Database(path: path)
            #expect(try reader.migrate(Self.schema(steps: 2)) == 2)
        }
    }
}
