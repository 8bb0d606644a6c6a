#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Support
import Testing

@testable import SentinelCLI

/// Root holds a read transaction on the OSV database while its analysis reads the lent mapping:
/// an update cannot commit under it (found by review: `db update` rewrote the live file, a scan
/// mapping it ended with SIGBUS or read a half-written page).
@Suite struct OSVReadHoldTests {
    @Test func noUpdateCommitsWhileTheAnalysisReads() throws {
        let directory = NSTemporaryDirectory() + "osv-hold-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/osv.sqlite"
        let writer = try Database(path: path)
        try writer.execute("CREATE TABLE t(a)")
        var hold = OSVReadHold(path: path)
        #expect(hold != nil)
        #expect(throws: SentinelError.self, "an update committed under the analysis's read") {
            try writer.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1); COMMIT")
        }
        try? writer.execute("ROLLBACK")
        hold = nil
        try writer.execute("INSERT INTO t VALUES (2)")
        #expect(OSVReadHold(path: directory + "/missing.sqlite") == nil)
    }
}
