import Foundation
import Testing
import Support
import TestSupport
import Synchronization
@testable import SCA

/// `OSVUpdater` against a loopback server serving zips built from the corpus.
@Suite("OSV updates", .integration, .enabled(if: Fixtures.hasZip, "needs /usr/bin/zip"), .needsCorpus("osv/pypa/vulns"))
struct OSVUpdaterTests {
    /// A zip of the corpus's records for `package` (a directory of the PyPA corpus).
    static func corpusZip(_ packages: [String], in dir: URL) throws -> [UInt8] {
        let zip = dir.appendingPathComponent("export-\(UUID().uuidString).zip").path
        var files = [String]()
        for package in packages {
            files += try OSVDatabase.collectFiles([Fixtures.pypa + "/" + package])
        }
        let result = try Fixtures.run("/usr/bin/zip", ["-q", "-j", zip] + files)
        try #require(result.status == 0)
        return Array(try Data(contentsOf: URL(fileURLWithPath: zip)))
    }

    func count(_ db: OSVDatabase) throws -> Int { try db.status().records }

    @Test func importsThenNotModifiedThenKeepsDataOnFailures() throws {
        let dir = try TemporaryDirectory.url("update")
        defer { try? FileManager.default.removeItem(at: dir) }
        let good = try Self.corpusZip(["jinja2"], in: dir)
        let newer = try Self.corpusZip(["jinja2", "pyyaml"], in: dir)
        // What the server does next, by request number.
        let plan: [@Sendable (LoopbackHTTPServer.Request) -> LoopbackHTTPServer.Response] = [
            { _ in .init(status: 200, headers: [("ETag", "\"v1\""), ("Last-Modified", "Tue, 01 Jul 2025 10:00:00 GMT")], body: good) },
            { $0.headers["if-none-match"] == "\"v1\"" ? .init(status: 304) : .init(status: 400) },
            { _ in .init(status: 500, body: Array("oops".utf8)) },
            { _ in .init(status: 200, headers: [("ETag", "\"v2\"")], body: Array(newer.prefix(newer.count / 2))) },
            { _ in .init(status: 200, headers: [("ETag", "\"v2\"")], body: Array(newer.prefix(1000)), declaredLength: newer.count) },
            { _ in .init(status: 200, headers: [("ETag", "\"v2\"")], body: newer) },
        ]
        let counter = Counter()
        let server = try LoopbackHTTPServer { request in plan[min(counter.next(), plan.count - 1)](request) }
        defer { server.stop() }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        let updater = OSVUpdater(baseURL: server.baseURL + "/")
        let url = server.baseURL + "/PyPI/all.zip"
        #expect(updater.url(of: "PyPI") == url)

        guard case .imported(let report) = try updater.update("PyPI", in: db) else { Issue.record("not imported"); return }
        #expect(report.inserted == 5 && report.problems.isEmpty)
        let stored = try count(db)
        #expect(try db.feed("PyPI")?.etag == "\"v1\"")
        #expect(try db.feed("PyPI")?.source == url)
        let source = try db.connection.prepare("SELECT source FROM records WHERE id = 'PYSEC-2019-217'")
        #expect(try source.step() && source.text(0) == url + "!PYSEC-2019-217.yaml", "records name the URL, not the temporary file")

        let later = Date().addingTimeInterval(3600)
        #expect(try updater.update("PyPI", in: db, now: later) == .notModified)
        #expect(server.requests[1].headers["if-none-match"] == "\"v1\"")
        #expect(server.requests[1].headers["if-modified-since"] == "Tue, 01 Jul 2025 10:00:00 GMT")
        #expect(try db.feed("PyPI")?.refreshedAt == Date(timeIntervalSince1970: later.timeIntervalSince1970.rounded(.down)))

        #expect(try updater.update("PyPI", in: db) == .failed("GET \(url): HTTP 500"))
        #expect(try updater.update("PyPI", in: db) == .failed("\(url): no zip end-of-central-directory record"))
        guard case .failed(let cut) = try updater.update("PyPI", in: db) else { Issue.record("cut-off transfer imported"); return }
        #expect(cut.hasPrefix("GET \(url): transfer closed"))
        #expect(try count(db) == stored, "failed downloads leave the records as they were")
        #expect(try db.feed("PyPI")?.etag == "\"v1\"", "and the validators")

        guard case .imported(let second) = try updater.update("PyPI", in: db) else { Issue.record("not imported"); return }
        #expect(second.inserted == 4 && second.unchanged == 5)
        #expect(try db.feed("PyPI")?.etag == "\"v2\"")
        // No temporary export is left beside the database.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".osv-export-") }
        #expect(leftovers.isEmpty)
    }

    @Test func corruptEntryRollsBackTheWholeExport() throws {
        let dir = try TemporaryDirectory.url("update-crc")
        defer { try? FileManager.default.removeItem(at: dir) }
        var bytes = try Self.corpusZip(["jinja2", "pyyaml"], in: dir)
        // Flip a byte inside the last entry's data (before the central directory): its CRC fails.
        let central = Self.lastIndex(of: [0x50, 0x4b, 0x01, 0x02], in: bytes, before: bytes.count)
        let lastLocal = Self.lastIndex(of: [0x50, 0x4b, 0x03, 0x04], in: bytes, before: central)
        bytes[(lastLocal + central) / 2 + 20] ^= 0xff
        let payload = bytes
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: payload) }
        defer { server.stop() }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        guard case .failed(let message) = try OSVUpdater(baseURL: server.baseURL).update("PyPI", in: db) else {
            Issue.record("a damaged export was imported"); return
        }
        #expect(message.hasPrefix(server.baseURL + "/PyPI/all.zip!"))
        #expect(try count(db) == 0)
        #expect(try db.feed("PyPI") == nil)
    }

    static func lastIndex(of pattern: [UInt8], in bytes: [UInt8], before end: Int) -> Int {
        var i = end - pattern.count
        while i >= 0 && Array(bytes[i..<(i + pattern.count)]) != pattern { i -= 1 }
        return i
    }
}

/// A request counter the server's handler shares with the test.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int {
        value.withLock { current in
            defer { current += 1 }; return current
        }
    }
}
