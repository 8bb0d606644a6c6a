import Foundation
import Store
import Support
import Testing

@testable import SCA
import TestSupport

/// The OSV schema's versions: files written by earlier builds open, newer ones are refused.
@Suite("Database schema")
struct DatabaseSchemaTests {
    static func pragmaUserVersion(_ path: String) throws -> Int64 {
        let q = try Database(path: path).prepare("PRAGMA user_version")
        try q.step()
        return q.int(0)
    }

    @Test func aNewFileIsAtTheLatestVersion() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        let db = try OSVDatabase(path: path)
        #expect(try db.connection.schemaVersion(of: OSVDatabase.schema) == 2)
        #expect(try Self.pragmaUserVersion(path) == 2, "older builds read PRAGMA user_version")
    }

    /// Version 1 kept aliases only as text in `records`: opening indexes them.
    @Test func aVersionOneFileGainsTheAliasIndex() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        do {
            let old = try Database(path: path)
            try OSVDatabase.recordsAndAffected.apply(old)
            try old.execute(
                """
                INSERT INTO records(id, modified, modified_key, aliases, severity, refs, source, raw, raw_size)
                VALUES ('PYSEC-1', 'm', 'm', 'CVE-1' || char(10) || 'GHSA-1', '', '', 'old', x'00', 1);
                PRAGMA user_version = 1;
                """)
        }
        let db = try OSVDatabase(path: path)
        let aliases = try db.connection.prepare("SELECT alias FROM aliases ORDER BY alias")
        var found = [String]()
        while try aliases.step() { found.append(aliases.text(0) ?? "") }
        #expect(found == ["CVE-1", "GHSA-1"])
        #expect(try db.feeds().isEmpty, "the feeds table exists")
        #expect(try Self.pragmaUserVersion(path) == 2)
    }

    @Test func aNewerFileIsRefused() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        try Database(path: path).execute("PRAGMA user_version = 3")
        #expect(
            throws: SentinelError(
                .invalidInput,
                "\(path): OSV database schema 3 is not supported (expected 2); delete it and import again")
        ) {
            _ = try OSVDatabase(path: path)
        }
    }
}
