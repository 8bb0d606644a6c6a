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
        .controlName: #"x.zip!R-0.json\x0A\x1B[2Jforged.json: declared size 104857600 bytes is past the bound of 67108864 bytes per entry"#,
    ]

    @Test(arguments: HostileZip.Kind.allCases)
    func aHostileArchiveIsOneErrorNotATrap(kind: HostileZip.Kind) throws {
        let dir = try TemporaryDirectory.url("hostile-zip")
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
        let dir = try TemporaryDirectory.url("hostile-zip-db")
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
        let dir = try TemporaryDirectory.url("hostile-zip-total")
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

    /// Seeded mutations of real archives, biased to the central directory and end records where
    /// sizes and offsets live: every outcome is entries or a `SentinelError`, never a trap.
    /// `SENTINEL_ZIP_FUZZ_SECONDS` runs longer than the default 3,000 rounds.
    @Test func mutatedArchivesNeverTrap() throws {
        let dir = try TemporaryDirectory.url("hostile-zip-fuzz")
        defer { try? FileManager.default.removeItem(at: dir) }
        let plain = dir.appendingPathComponent("plain.zip").path
        let records = Dictionary(
            uniqueKeysWithValues: (0..<4).map { ("R-\($0).json", HostileZip.record(id: "R-\($0)", modified: "2024-01-01T00:00:00Z")) })
        try HostileZip.export(records, to: plain)
        let bases = try [plain, ZipArchiveTests.write("zip64-everywhere", in: dir), ZipArchiveTests.write("streamed", in: dir)]
            .map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
        let seconds = Double(ProcessInfo.processInfo.environment["SENTINEL_ZIP_FUZZ_SECONDS"] ?? "") ?? 0
        let deadline = Date().addingTimeInterval(seconds)
        var random = SeededRandom(state: 26)
        var round = 0
        var opened = 0
        while round < 3_000 || Date() < deadline {
            var bytes = bases[round % bases.count]
            round += 1
            for _ in 0...(random.next() % 8) {
                let tail = min(bytes.count, 160)
                let at =
                    random.next() % 3 == 0
                    ? Int(random.next() % UInt64(bytes.count)) : bytes.count - 1 - Int(random.next() % UInt64(tail))
                let values: [UInt8] = [0x00, 0xFF, 0x7F, 0x80, 0x01, UInt8(truncatingIfNeeded: random.next())]
                bytes[at] = values[Int(random.next() % UInt64(values.count))]
            }
            do {
                try Self.readAll(bytes)
                opened += 1
            } catch let error as SentinelError {
                #expect(!error.message.isEmpty && !error.message.contains("\n"))
            }
        }
        #expect(round >= 3_000 && opened < round, "\(opened) of \(round) mutated archives opened")
    }
}
