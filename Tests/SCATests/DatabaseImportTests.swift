#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
import Support
@testable import SCA
import TestSupport

/// Writes small hand-made OSV records for import tests.
enum RecordFiles {
    static func json(
        id: String, modified: String = "2024-01-01T00:00:00Z", ecosystem: String = "PyPI",
        name: String = "demo", events: String = #"{"introduced": "0"}, {"fixed": "1.5"}"#,
        withdrawn: String? = nil, extra: String = ""
    ) -> String {
        """
        {"id": "\(id)", "modified": "\(modified)", \(withdrawn.map { "\"withdrawn\": \"\($0)\"," } ?? "")
         "aliases": ["CVE-\(id)"], "summary": "summary of \(id)", \(extra)
         "affected": [{"package": {"ecosystem": "\(ecosystem)", "name": "\(name)"},
                       "ranges": [{"type": "ECOSYSTEM", "events": [\(events)]}]}]}
        """
    }

    static func write(_ text: String, _ name: String, in dir: URL) throws {
        try text.write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
    }
}

@Suite("Database import")
struct DatabaseImportTests {
    @Test("re-import changes nothing; newer modified replaces, older is ignored")
    func idempotentAndNewerWins() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let v1 = dir.appendingPathComponent("v1"), v2 = dir.appendingPathComponent("v2")
        for d in [v1, v2] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try RecordFiles.write(RecordFiles.json(id: "A-1"), "A-1.json", in: v1)
        try RecordFiles.write(RecordFiles.json(id: "A-2", name: "other"), "A-2.json", in: v1)
        try RecordFiles.write(
            RecordFiles.json(
                id: "A-1", modified: "2024-02-01T00:00:00.5Z",
                events: #"{"introduced": "0"}, {"fixed": "1.6"}"#), "A-1.json", in: v2)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let first = try db.import(paths: [v1.path])
        #expect(first.inserted == 2 && first.problems.isEmpty && first.files == 2)
        let again = try db.import(paths: [v1.path])
        #expect(again.inserted == 0 && again.updated == 0 && again.unchanged == 2)
        let dep = Dependency(ecosystem: .pypi, name: "demo", version: "1.5", file: "requirements.txt", line: 1)
        #expect(try db.lookup(dep).map(\.advisory.id) == [])
        let newer = try db.import(paths: [v2.path])
        #expect(newer.updated == 1)
        #expect(try db.lookup(dep).map(\.advisory.id) == ["A-1"])
        #expect(try db.lookup(dep).first?.smallestFix == "1.6")
        let older = try db.import(paths: [v1.path])
        #expect(older.olderIgnored == 1 && older.unchanged == 1)
        #expect(try db.lookup(dep).first?.smallestFix == "1.6")
        #expect(try db.status().records == 2)
    }

    /// Issue 78, W4: a 2 GiB sparse `.json` another user left in the imported directory was read
    /// whole (the import was OOM-killed by an outer group only). Each file is read through the
    /// bounded reader: a record past 64 MiB, an archive past 1 GiB, is a problem naming the bound,
    /// and the rest is imported.
    @Test("a record file past the bound is a problem naming it, read no further; the others are imported")
    func oversizedRecordFile() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let records = dir.appendingPathComponent("records")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try RecordFiles.write(RecordFiles.json(id: "A-1"), "A-1.json", in: records)
        for (name, size) in [("huge.json", ZipLimits.osvExports.maxEntryBytes + 1), ("huge.zip", ZipLimits.osvExports.maxArchiveBytes + 1)]
        {
            let path = records.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: nil))
            #expect(truncate(path, off_t(size)) == 0)
        }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let report = try db.import(paths: [records.path])
        #expect(report.inserted == 1, "\(report)")
        #expect(
            report.problems.map(\.message).sorted() == [
                "\(records.path)/huge.json: larger than \(ZipLimits.osvExports.maxEntryBytes) bytes",
                "\(records.path)/huge.zip: larger than \(ZipLimits.osvExports.maxArchiveBytes) bytes",
            ], "\(report.problems)")
    }

    /// A directory named to `db import` is walked without following a link another user may have
    /// put there (to a file only root may read, when root imports): it is a problem naming the
    /// link, the other records are imported. A file the operator names herself may be a link.
    @Test("a link found in a named directory is refused, not followed; a named link is read")
    func linkInsideANamedDirectory() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let records = dir.appendingPathComponent("records"), elsewhere = dir.appendingPathComponent("elsewhere")
        for d in [records, elsewhere] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        try RecordFiles.write(RecordFiles.json(id: "A-1"), "A-1.json", in: records)
        try RecordFiles.write(RecordFiles.json(id: "B-1", name: "other"), "B-1.json", in: elsewhere)
        let link = records.appendingPathComponent("B-1.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: elsewhere.appendingPathComponent("B-1.json").path)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let report = try db.import(paths: [records.path])
        #expect(report.inserted == 1, "\(report)")
        #expect(report.problems.map(\.message) == ["\(link): is a symbolic link"], "\(report.problems)")
        let named = try db.import(paths: [link])
        #expect(named.inserted == 1 && named.problems.isEmpty, "\(named)")
    }

    @Test("a failure midway leaves the previous database intact")
    func atomic() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let base = dir.appendingPathComponent("base"), next = dir.appendingPathComponent("next")
        for d in [base, next] { try FileManager.default.createDirectory(at: d, withIntermediateDirectories: true) }
        for i in 0..<5 { try RecordFiles.write(RecordFiles.json(id: "B-\(i)", name: "p\(i)"), "B-\(i).json", in: base) }
        // The next batch updates B-0 (sorted first) then adds new records; the fault strikes after 4.
        try RecordFiles.write(
            RecordFiles.json(
                id: "B-0", modified: "2025-01-01T00:00:00Z", name: "p0",
                events: #"{"introduced": "0"}, {"fixed": "9.0"}"#), "B-0.json", in: next)
        for i in 10..<20 { try RecordFiles.write(RecordFiles.json(id: "B-\(i)", name: "p\(i)"), "B-\(i).json", in: next) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        let db = try OSVDatabase(path: path)
        _ = try db.import(paths: [base.path])
        let before = try db.status()
        #expect(throws: SentinelError.self) { try db.importRecords(paths: [next.path], failAfter: 4) }
        let after = try db.status()
        #expect(after.records == before.records && after.records == 5)
        #expect(after.ecosystems == before.ecosystems)
        let dep = Dependency(ecosystem: .pypi, name: "p0", version: "1.0", file: "r", line: 1)
        #expect(try db.lookup(dep).first?.smallestFix == "1.5")
        // A fresh connection sees the same, and the database still accepts the full import.
        let reopened = try OSVDatabase(path: path)
        #expect(try reopened.status().records == 5)
        let report = try reopened.import(paths: [next.path])
        #expect(report.inserted == 10 && report.updated == 1)
        #expect(try reopened.lookup(dep).first?.smallestFix == "9.0")
    }

    @Test("malformed files are reported by name and skipped; the rest is imported")
    func malformed() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RecordFiles.write(RecordFiles.json(id: "C-1"), "C-1.json", in: dir)
        try RecordFiles.write("{ not json", "broken.json", in: dir)
        try RecordFiles.write("id: [unclosed\n", "broken.yaml", in: dir)
        try RecordFiles.write(#"{"modified": "2024-01-01T00:00:00Z"}"#, "noid.json", in: dir)
        try RecordFiles.write(
            "id: C-2\nmodified: 2024-01-01T00:00:00Z\naffected:\n- package: {ecosystem: PyPI, name: y}\n  ranges:\n  - type: ECOSYSTEM\n    events:\n    - introduced: 0\n",
            "C-2.yml", in: dir)
        try RecordFiles.write("ignored", "README.md", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let report = try db.import(paths: [dir.path])
        #expect(report.inserted == 2)
        #expect(report.files == 5)
        let names = report.problems.map { URL(fileURLWithPath: $0.source).lastPathComponent }.sorted()
        #expect(names == ["broken.json", "broken.yaml", "noid.json"])
        for problem in report.problems {
            #expect(problem.message.hasPrefix(problem.source + ": "))
            #expect(!problem.message.contains("\n"))
        }
    }

    @Test("missing paths and unsupported files are refused before anything changes")
    func badPaths() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let missing = dir.appendingPathComponent("nope").path
        #expect(throws: SentinelError(.invalidInput, "\(missing): no such file or directory")) {
            try db.import(paths: [missing])
        }
        try RecordFiles.write("x", "notes.txt", in: dir)
        let txt = dir.appendingPathComponent("notes.txt").path
        #expect(throws: SentinelError(.invalidInput, "\(txt): not a .json, .yaml, .yml or .zip file")) {
            try db.import(paths: [txt])
        }
    }

    @Test("a file that is not a database is refused with its name")
    func notADatabase() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("osv.sqlite").path
        try String(repeating: "garbage ", count: 200).write(toFile: path, atomically: true, encoding: .utf8)
        do {
            _ = try OSVDatabase(path: path)
            Issue.record("expected an error")
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix(path + ": "))
        }
    }

    @Test("withdrawn records are kept but never matched")
    func withdrawn() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        try RecordFiles.write(RecordFiles.json(id: "W-1", withdrawn: "2024-03-01T00:00:00Z"), "W-1.json", in: dir)
        try RecordFiles.write(RecordFiles.json(id: "W-2"), "W-2.json", in: dir)
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [dir.path])
        let status = try db.status()
        #expect(status.records == 2 && status.withdrawn == 1)
        let matches = try db.lookup(Dependency(ecosystem: .pypi, name: "demo", version: "1.0", file: "r", line: 1))
        #expect(matches.map(\.advisory.id) == ["W-2"])
        #expect(try db.record(id: "W-1")?.withdrawn == "2024-03-01T00:00:00Z")
    }

    @Test(
        "zip exports import like the directory they came from (stored and deflated)",
        .enabled(if: Fixtures.hasZip, "needs /usr/bin/zip to build the archives"))
    func zipImport() throws {
        let dir = try TemporaryDirectory.url("sca")
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("src")
        try FileManager.default.createDirectory(at: src, withIntermediateDirectories: true)
        for i in 0..<30 {
            try RecordFiles.write(
                RecordFiles.json(
                    id: "Z-\(i)", name: "z\(i % 7)",
                    extra: #""details": "\#(String(repeating: "long text ", count: 50))","#),
                "Z-\(i).json", in: src)
        }
        try RecordFiles.write("{ broken", "bad.json", in: src)
        for (name, level) in [("deflated.zip", "-6"), ("stored.zip", "-0")] {
            let zip = dir.appendingPathComponent(name).path
            let result = try Fixtures.run(
                "/usr/bin/zip",
                ["-q", "-j", level, zip]
                    + (try FileManager.default
                        .contentsOfDirectory(atPath: src.path).sorted().map { src.appendingPathComponent($0).path }))
            try #require(result.status == 0)
            let db = try OSVDatabase(path: dir.appendingPathComponent("\(name).sqlite").path)
            let report = try db.import(paths: [zip])
            #expect(report.inserted == 30 && report.files == 31, "\(name)")
            #expect(report.problems.map(\.source) == ["\(zip)!bad.json"])
            let matches = try db.lookup(Dependency(ecosystem: .pypi, name: "z3", version: "1.0", file: "r", line: 1))
            #expect(matches.count == 4)  // Z-3, Z-10, Z-17, Z-24
            #expect(try db.record(id: "Z-3")?.details?.hasPrefix("long text") == true)
        }
        // A damaged archive fails the import (nothing changes); a damaged entry is a reported problem.
        let deflated = try Data(contentsOf: dir.appendingPathComponent("deflated.zip"))
        let truncated = dir.appendingPathComponent("truncated.zip")
        try deflated.prefix(deflated.count / 2).write(to: truncated)
        let corrupt = dir.appendingPathComponent("corrupt.zip")
        var bytes = [UInt8](deflated)
        for i in stride(from: 60, to: bytes.count / 3, by: 7) { bytes[i] ^= 0x5A }
        try Data(bytes).write(to: corrupt)
        let db = try OSVDatabase(path: dir.appendingPathComponent("bad.sqlite").path)
        #expect(throws: SentinelError(.invalidInput, "\(truncated.path): no zip end-of-central-directory record")) {
            try db.import(paths: [truncated.path, corrupt.path])
        }
        #expect(try db.status().records == 0)
        let report = try db.import(paths: [corrupt.path])
        #expect(report.problems.contains { $0.source.hasPrefix(corrupt.path + "!") })
    }
}

/// Imports of the three shared corpora, each once per test run, shared by the lookup tests.
enum CorpusDatabases {
    struct Imported: Sendable {
        var path: String
        var report: ImportReport
        var seconds: Double
    }

    static func importCorpus(_ corpus: String, label: String) -> Result<Imported, SentinelError> {
        do {
            let dir = try TemporaryDirectory.url(label)
            let path = dir.appendingPathComponent("osv.sqlite").path
            let start = Date()
            let report = try OSVDatabase(path: path).import(paths: [corpus])
            return .success(Imported(path: path, report: report, seconds: Date().timeIntervalSince(start)))
        } catch let error as SentinelError {
            return .failure(error)
        } catch {
            return .failure(SentinelError(.io, "\(corpus): \(error)"))
        }
    }

    static let pypa = importCorpus(Fixtures.pypa, label: "pypa")
    static let rustsec = importCorpus(Fixtures.rustsec, label: "rustsec")
    static let golang = importCorpus(Fixtures.golang, label: "golang")
}

@Suite("Corpus imports", .needsCorpus("osv/pypa/vulns"))
struct DatabaseCorpusTests {
    static func files(_ dir: String) throws -> Int { try OSVDatabase.collectFiles([dir]).count }

    @Test("PyPI (pypa, YAML)")
    func pypa() throws {
        let imported = try CorpusDatabases.pypa.get()
        let report = imported.report
        print(
            "pypa import: \(report.inserted) records in \(String(format: "%.1f", imported.seconds)) s, problems: \(report.problems.prefix(3))"
        )
        #expect(report.files == (try Self.files(Fixtures.pypa)))
        #expect(report.inserted + report.updated + report.unchanged + report.olderIgnored + report.problems.count == report.files)
        #expect(report.inserted > 2600)
        let status = try OSVDatabase(path: imported.path).status()
        let pypi = try #require(status.ecosystems.first { $0.ecosystem == "PyPI" })
        #expect(pypi.records == report.inserted)
        #expect(status.newestModified != nil && status.fileSize > 0)
    }

    @Test("crates.io (RustSec, JSON), then re-imported unchanged")
    func rustsec() throws {
        let imported = try CorpusDatabases.rustsec.get()
        let report = imported.report
        print(
            "rustsec import: \(report.inserted) records in \(String(format: "%.1f", imported.seconds)) s, problems: \(report.problems.prefix(3))"
        )
        #expect(report.files == (try Self.files(Fixtures.rustsec)))
        #expect(report.inserted > 1150 && report.problems.isEmpty)
        // A copy so the shared database stays as imported for other tests.
        let copy = imported.path + ".again"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: imported.path, toPath: copy)
        let db = try OSVDatabase(path: copy)
        let before = try db.status()
        let again = try db.import(paths: [Fixtures.rustsec])
        #expect(again.inserted == 0 && again.updated == 0)
        #expect(again.unchanged + again.olderIgnored == report.inserted + report.updated + report.unchanged + report.olderIgnored)
        #expect(try db.status().records == before.records)
        let status = try db.status()
        #expect(status.ecosystems.first { $0.ecosystem == "crates.io" }?.records == report.inserted)
    }

    @Test("Go (JSON) with the stdlib entries")
    func golang() throws {
        let imported = try CorpusDatabases.golang.get()
        let report = imported.report
        print(
            "golang import: \(report.inserted) records in \(String(format: "%.1f", imported.seconds)) s, problems: \(report.problems.prefix(3))"
        )
        #expect(report.files == (try Self.files(Fixtures.golang)))
        #expect(report.inserted > 4200 && report.problems.isEmpty)
        let db = try OSVDatabase(path: imported.path)
        // GO-2024-2887 style: stdlib 1.21.x fixed in a later patch; any 1.21.0 toolchain is affected by something.
        let stdlib = try db.lookup(Dependency(ecosystem: .go, name: "stdlib", version: "1.21", file: "go.mod", line: 3))
        #expect(stdlib.count > 10)
        #expect(stdlib.allSatisfy { $0.smallestFix != nil })
        let newer = try db.lookup(Dependency(ecosystem: .go, name: "stdlib", version: "go1.21rc2", file: "go.mod", line: 3))
        #expect(newer.count >= stdlib.count - 5)
    }
}
