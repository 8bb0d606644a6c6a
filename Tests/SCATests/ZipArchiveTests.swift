import Foundation
import Support
import Testing

@testable import SCA
import TestSupport

/// The zip reader on archives Python's `zipfile` writes in the shapes OSV exports may take: zip64
/// (local, central and end records) and streamed entries (data descriptors); and on damage.
@Suite("Zip archives", .enabled(if: Fixtures.pythonHas("zipfile"), "needs python3"))
struct ZipArchiveTests {
    /// Writes `kind.zip` with records R-0...R-4 (package `z`) and a directory entry; prints nothing.
    static let writer = #"""
        import io, json, sys, zipfile
        kind, path = sys.argv[1], sys.argv[2]
        records = {f"vulns/R-{i}.json": json.dumps({"id": f"R-{i}", "modified": "2024-01-01T00:00:00Z",
            "details": "long text " * 40, "affected": [{"package": {"ecosystem": "PyPI", "name": "z"},
            "ranges": [{"type": "ECOSYSTEM", "events": [{"introduced": "0"}, {"fixed": "2.0"}]}]}]}) for i in range(5)}
        if kind == "zip64-everywhere":
            # Every size and offset past the (lowered) limits: zip64 extras in the central directory,
            # the zip64 end record and its locator, as a >4 GiB or >65,535-entry export has.
            zipfile.ZIP64_LIMIT = 0
            zipfile.ZIP_FILECOUNT_LIMIT = 1
        class Unseekable(io.RawIOBase):
            def __init__(self, f): self.f = f
            def writable(self): return True
            def write(self, b): return self.f.write(b)
        with open(path, "wb") as out:
            target = Unseekable(out) if kind == "streamed" else out
            with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(zipfile.ZipInfo("vulns/"), b"")  # a directory entry, stored
                for name, text in records.items():
                    with z.open(name, "w", force_zip64=kind.startswith("zip64")) as entry:
                        entry.write(text.encode())
        with zipfile.ZipFile(path) as z:
            assert z.testzip() is None
        """#

    static func write(_ kind: String, in dir: URL) throws -> String {
        let path = dir.appendingPathComponent("\(kind).zip").path
        let result = try Fixtures.run("/usr/bin/env", ["python3", "-c", writer, kind, path])
        try #require(result.status == 0, "python3 could not write \(kind).zip")
        return path
    }

    static func contains(_ signature: UInt32, in bytes: [UInt8]) -> Bool {
        let pattern = withUnsafeBytes(of: signature.littleEndian) { Array($0) }
        return bytes.indices.dropLast(3).contains { Array(bytes[$0..<($0 + 4)]) == pattern }
    }

    @Test(arguments: ["zip64-local", "zip64-everywhere", "streamed"])
    func importsEveryShape(kind: String) throws {
        let dir = try TemporaryDirectory.url("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = try Self.write(kind, in: dir)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        switch kind {
        case "zip64-everywhere":
            #expect(Self.contains(0x0606_4b50, in: bytes), "a zip64 end record")
            #expect(Self.contains(0x0706_4b50, in: bytes), "a zip64 locator")
            // Saturate the plain end record's counts, size and offset as a >65,535-entry or >4 GiB
            // export has them (Python writes the true small values): only the zip64 record is left.
            let eocd = try #require((0..<(bytes.count - 3)).last { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4b, 0x05, 0x06]) })
            for i in (eocd + 8)..<(eocd + 20) { bytes[i] = 0xFF }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        case "streamed":
            #expect(Self.contains(0x0807_4b50, in: bytes), "data descriptors")
        default: break
        }
        let archive = try ZipArchive(path: path, bytes: bytes)
        #expect(archive.entries.map(\.name) == ["vulns/"] + (0..<5).map { "vulns/R-\($0).json" })
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let report = try db.import(paths: [path])
        #expect(report.inserted == 5 && report.files == 5 && report.problems.isEmpty, "\(report.problems)")
        let matches = try db.lookup(Dependency(ecosystem: .pypi, name: "z", version: "1.0", file: "r", line: 1))
        #expect(matches.count == 5)
        #expect(try db.record(id: "R-3")?.details?.hasPrefix("long text") == true)
    }

    /// A damaged central directory entry fails the archive; it must not end the listing early
    /// and let half an export pass for the whole one.
    @Test func aDamagedCentralDirectoryEntryFails() throws {
        let dir = try TemporaryDirectory.url("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.write("plain", in: dir))))
        let central = (0..<(bytes.count - 3)).filter { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4b, 0x01, 0x02]) }
        try #require(central.count == 6)
        bytes[central[3]] = 0x58
        #expect(throws: SentinelError(.invalidInput, "x.zip: central directory entry 3 is damaged")) {
            _ = try ZipArchive(path: "x.zip", bytes: bytes)
        }
    }

    @Test func aDamagedZip64RecordFails() throws {
        let dir = try TemporaryDirectory.url("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.write("zip64-everywhere", in: dir))))
        let locator = (0..<(bytes.count - 3)).last { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4b, 0x06, 0x07]) }
        let at = try #require(locator)
        bytes[at + 8 + 7] = 0x7f  // the record's offset now points far past the file
        #expect(throws: SentinelError(.invalidInput, "x.zip: zip64 end-of-central-directory record is damaged")) {
            _ = try ZipArchive(path: "x.zip", bytes: bytes)
        }
    }

    /// A declared size no deflate stream can reach is refused before any buffer is allocated.
    @Test func anImplausibleSizeFails() throws {
        let dir = try TemporaryDirectory.url("zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.write("plain", in: dir))))
        let central = (0..<(bytes.count - 3)).filter { bytes[$0..<($0 + 4)].elementsEqual([0x50, 0x4b, 0x01, 0x02]) }
        for (offset, byte) in [0xF0, 0xFF, 0xFF, 0xFE].enumerated() { bytes[central[1] + 24 + offset] = UInt8(byte) }
        #expect(
            throws: SentinelError(
                .invalidInput, "x.zip!vulns/R-0.json: declared size 4278190064 bytes is past the bound of 67108864 bytes per entry")
        ) {
            _ = try ZipArchive(path: "x.zip", bytes: bytes)
        }
    }
}
