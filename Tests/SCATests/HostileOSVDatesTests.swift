import Foundation
import Support
import Testing
import TestSupport

@testable import SCA

/// Issue 26: one update from a hostile mirror must not hide an advisory for good. A `modified`
/// in the future does not win the newer-wins order, a `withdrawn` in the future is not a
/// withdrawal yet, and a full export from the real source replaces the ecosystem's records.
@Suite("Hostile OSV dates", .integration, .enabled(if: Fixtures.hasZip, "needs /usr/bin/zip"))
struct HostileOSVDatesTests {
    static let genuine = HostileZip.record(id: "GHSA-x", modified: "2024-05-01T00:00:00Z")
    /// The mirror's copy: withdrawn now, and "modified" so late that nothing would ever be newer.
    static let hostile = HostileZip.record(
        id: "GHSA-x", modified: "2999-01-01T00:00:00Z", withdrawn: "2024-06-01T00:00:00Z")

    static func matches(_ db: OSVDatabase) throws -> [String] {
        try db.lookup(Dependency(ecosystem: .pypi, name: "z", version: "1.0", file: "r", line: 1)).map(\.advisory.id)
    }

    static func export(_ records: [String: [UInt8]], named name: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent(name).path
        try HostileZip.export(records, to: path)
        return path
    }

    static func bytes(_ records: [String: [UInt8]], named name: String, in dir: URL) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: try export(records, named: name, in: dir))))
    }

    @Test func aMirrorsFarFutureModifiedLosesToTheGenuineExportImportedAfterIt() throws {
        let dir = try TemporaryDirectory.url("hostile-dates")
        defer { try? FileManager.default.removeItem(at: dir) }
        let genuine = try Self.export(["GHSA-x.json": Self.genuine], named: "genuine.zip", in: dir)
        let hostile = try Self.export(["GHSA-x.json": Self.hostile], named: "hostile.zip", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [hostile])
        #expect(try Self.matches(db) == [], "the mirror withdrew it")
        _ = try db.import(paths: [genuine])
        #expect(try Self.matches(db) == ["GHSA-x"], "the genuine export brings it back")
    }

    @Test func aWithdrawalDatedInTheFutureIsNotAWithdrawalYet() throws {
        let dir = try TemporaryDirectory.url("hostile-dates-withdrawn")
        defer { try? FileManager.default.removeItem(at: dir) }
        let later = HostileZip.record(id: "GHSA-x", modified: "2024-05-01T00:00:00Z", withdrawn: "2999-01-01T00:00:00Z")
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [try Self.export(["GHSA-x.json": later], named: "later.zip", in: dir)])
        #expect(try Self.matches(db) == ["GHSA-x"])
    }

    /// `db update` from a mirror, then from the real source: the real export replaces the
    /// ecosystem's records, even one the mirror served with the genuine `modified`, and records
    /// only the mirror had are gone.
    @Test func anUpdateFromTheRealSourceReplacesWhatAMirrorServed() throws {
        let dir = try TemporaryDirectory.url("hostile-dates-update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let sameDate = HostileZip.record(id: "GHSA-y", modified: "2024-05-01T00:00:00Z", withdrawn: "2024-06-01T00:00:00Z")
        let genuineY = HostileZip.record(id: "GHSA-y", modified: "2024-05-01T00:00:00Z")
        let fake = HostileZip.record(id: "FAKE-1", modified: "2024-01-01T00:00:00Z")
        let mirror = try Self.bytes(
            ["GHSA-x.json": Self.hostile, "GHSA-y.json": sameDate, "FAKE-1.json": fake], named: "mirror.zip", in: dir)
        let real = try Self.bytes(["GHSA-x.json": Self.genuine, "GHSA-y.json": genuineY], named: "real.zip", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let mirrorServer = try LoopbackHTTPServer { _ in .init(status: 200, body: mirror) }
        defer { mirrorServer.stop() }
        let realServer = try LoopbackHTTPServer { _ in .init(status: 200, body: real) }
        defer { realServer.stop() }

        guard case .imported = try OSVUpdater(baseURL: mirrorServer.baseURL).update("PyPI", in: db) else {
            Issue.record("the mirror's export was not imported"); return
        }
        #expect(try Self.matches(db) == ["FAKE-1"])
        guard case .imported = try OSVUpdater(baseURL: realServer.baseURL).update("PyPI", in: db) else {
            Issue.record("the real export was not imported"); return
        }
        #expect(try Self.matches(db) == ["GHSA-x", "GHSA-y"])
        #expect(try db.record(id: "FAKE-1") == nil)
    }
}
