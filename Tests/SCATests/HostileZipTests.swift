import Foundation
import Support
import Testing
import TestSupport

@testable import SCA

/// Issue 26: zips a hostile OSV mirror serves. Whatever the central directory declares, the one
/// zip reader never traps (no arithmetic overflow, no allocation of a declared size), fails with
/// one line naming the archive or entry and the problem, and leaves the database as it was.
@Suite("Hostile zip exports", .enabled(if: Fixtures.pythonHas("zlib") && Fixtures.hasZip, "needs python3 and /usr/bin/zip"))
struct HostileZipTests {
    static func bytes(_ kind: HostileZip.Kind, in dir: URL) throws -> [UInt8] {
        let path = dir.appendingPathComponent("\(kind.rawValue).zip").path
        try HostileZip.write(kind, to: path)
        return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    /// Opens the archive and reads every entry, as an import does.
    static func readAll(_ bytes: [UInt8], limits: ZipLimits = .osvExports) throws {
        let archive = try ZipArchive(path: "x.zip", bytes: bytes, limits: limits)
        for entry in archive.entries { _ = try archive.contents(of: entry) }
    }

    static let expected: [HostileZip.Kind: String] = [
        .zip64Huge: "x.zip!big.json: declared size 5368709120 bytes is past the bound of 67108864 bytes per entry",
        .saturatedWithoutZip64: "x.zip: central directory entry 0 is damaged",
        .offsetOverflow: "x.zip!R-0.json: local header offset 9223372036854775792 lies outside the file",
        .sizeOverflow: "x.zip!R-0.json: compressed size 9223372036854775807 runs past the central directory",
        .directoryOutside: "x.zip: central directory lies outside the file",
        .overlapping: "x.zip!R-1.json: overlaps x.zip!R-0.json",
        .dataIntoDirectory: "x.zip!R-1.json: compressed size 187 runs past the central directory",
        .bomb: "x.zip!bomb.json: declared size 209715200 bytes is past the bound of 67108864 bytes per entry",
        .ratio: "x.zip!ratio.json: expands 10485760 bytes from 10203 (1027:1), past the bound of 100:1",
    ]

    @Test(arguments: HostileZip.Kind.allCases)
    func aHostileArchiveIsOneErrorNotATrap(kind: HostileZip.Kind) throws {
        let dir = try Fixtures.temporaryDirectory("hostile-zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let bytes = try Self.bytes(kind, in: dir)
        let error = #expect(throws: SentinelError.self) { try Self.readAll(bytes) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message == Self.expected[kind], "\(kind)")
    }

    /// The same archives through `db import` and an update: the import fails as a whole and the
    /// records stored before are still there.
    @Test(arguments: [HostileZip.Kind.zip64Huge, .bomb, .overlapping, .offsetOverflow])
    func aHostileArchiveLeavesTheDatabaseAsItWas(kind: HostileZip.Kind) throws {
        let dir = try Fixtures.temporaryDirectory("hostile-zip-db")
        defer { try? FileManager.default.removeItem(at: dir) }
        let genuine = dir.appendingPathComponent("genuine.zip").path
        try HostileZip.export(["G-1.json": HostileZip.record(id: "G-1", modified: "2024-01-01T00:00:00Z")], to: genuine)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        #expect(try db.import(paths: [genuine]).inserted == 1)
        let hostile = dir.appendingPathComponent("\(kind.rawValue).zip").path
        try HostileZip.write(kind, to: hostile)
        let imported = #expect(throws: SentinelError.self) { try db.import(paths: [hostile]) }
        #expect(imported?.message.hasPrefix(hostile) == true, "\(String(describing: imported))")
        let exported = #expect(throws: SentinelError.self) {
            try db.importExport(zip: hostile, label: "https://mirror/PyPI/all.zip", feed: FeedState(ecosystem: "PyPI", source: "m"))
        }
        #expect(exported?.message.hasPrefix("https://mirror/PyPI/all.zip") == true, "\(String(describing: exported))")
        #expect(try db.status().records == 1)
        #expect(try db.lookup(Dependency(ecosystem: .pypi, name: "z", version: "1.0", file: "r", line: 1)).map(\.advisory.id) == ["G-1"])
    }

    /// The total bound counts every entry's declared size (here lowered to fit the test).
    @Test func theTotalBoundCountsEveryEntry() throws {
        let dir = try Fixtures.temporaryDirectory("hostile-zip-total")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("five.zip").path
        let records = Dictionary(
            uniqueKeysWithValues: (0..<5).map { ("R-\($0).json", HostileZip.record(id: "R-\($0)", modified: "2024-01-01T00:00:00Z")) })
        try HostileZip.export(records, to: path)
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        var limits = ZipLimits.osvExports
        try Self.readAll(bytes, limits: limits)
        limits.maxTotalBytes = 500
        let error = #expect(throws: SentinelError.self) { try Self.readAll(bytes, limits: limits) }
        #expect(error?.message.hasPrefix("x.zip: entries expand to more than 500 bytes in total") == true, "\(String(describing: error))")
    }
}
