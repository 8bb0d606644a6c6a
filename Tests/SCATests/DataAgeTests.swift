import Foundation
import Testing

@testable import SCA
import TestSupport

/// Issue 27: how old an ecosystem's advisories are is read from the records' own `modified`,
/// per export (`Debian:11` counts for `Debian`), ignoring dates past tomorrow and the import time.
@Suite struct DataAgeTests {
    static let now = ISO8601DateFormatter().date(from: "2026-11-25T12:00:00Z")!

    /// A database holding one record per `(id, ecosystem, modified)`.
    static func database(_ records: [(String, String, String)], in dir: URL) throws -> OSVDatabase {
        for (id, ecosystem, modified) in records {
            let json = """
                {"id": "\(id)", "modified": "\(modified)",
                 "affected": [{"package": {"ecosystem": "\(ecosystem)", "name": "p"}, "versions": ["1.0"]}]}
                """
            try json.write(to: dir.appendingPathComponent(id + ".json"), atomically: true, encoding: .utf8)
        }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: records.map { dir.appendingPathComponent($0.0 + ".json").path })
        return db
    }

    @Test func theNewestTrustedModifiedOfTheExportDecides() throws {
        let dir = try TemporaryDirectory.url("data-age")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try Self.database(
            [
                ("A", "PyPI", "2026-10-01T00:00:00Z"), ("B", "PyPI", "2026-11-20T06:30:00.5Z"),
                ("C", "PyPI", "2999-01-01T00:00:00Z"), ("D", "Debian:11", "2026-11-25T00:00:00Z"),
                ("E", "Debian:12", "2026-11-24T00:00:00Z"), ("F", "npm", "2026-11-30T00:00:00Z"),
            ], in: dir)
        let pypi = try #require(try db.dataAge(of: "PyPI", now: Self.now))
        #expect(pypi.newestModified == "2026-11-20T06:30:00.5Z", "2999 is not trusted")
        let expected: Double = 5 * 86_400 + 5.5 * 3_600  // to the second
        #expect(pypi.seconds(at: Self.now) == expected)
        #expect(try db.dataAge(of: "Debian", now: Self.now)?.newestModified == "2026-11-25T00:00:00Z")
        // Five days ahead is past the day of clock skew allowed: no trusted date at all.
        #expect(try db.dataAge(of: "npm", now: Self.now) == nil)
        #expect(try db.dataAge(of: "crates.io", now: Self.now) == nil)
        #expect(try db.dataAge(of: "Deb", now: Self.now) == nil, "a prefix is not an export")
    }

    @Test func aDateInAnotherZoneIsPassedOverForOneThatReadsAsUTC() throws {
        let dir = try TemporaryDirectory.url("data-age-zone")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try Self.database([("A", "PyPI", "2026-11-01T00:00:00Z"), ("B", "PyPI", "2026-11-02T00:00:00+02:00")], in: dir)
        #expect(try db.dataAge(of: "PyPI", now: Self.now)?.newestModified == "2026-11-01T00:00:00Z")
    }
}
