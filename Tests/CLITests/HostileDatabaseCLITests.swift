import Foundation
import Testing
import TestSupport

/// Issue 26, end to end: `sentinel db import` and `db update` on zips and records a hostile OSV
/// mirror serves. The real binary runs in a child process, so a trap shows as a signal status.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"), "needs /usr/bin/zip"))
struct HostileDatabaseCLITests {
    let home = NSTemporaryDirectory() + "sentinel-osvzip-\(UUID().uuidString)"
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        environment.removeValue(forKey: "SENTINEL_OSV_URL")
        return environment
    }

    func records() throws -> String {
        let status = try CLI.run(["db", "status"], environment: environment)
        return status.stdout.split(separator: "\n").first { $0.hasPrefix("records") }.map(String.init) ?? status.stderr
    }

    /// A genuine export with G-1 imported first, so that "the previous database intact" is checked.
    func importGenuine() throws {
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let genuine = home + "/genuine.zip"
        try HostileZip.export(["G-1.json": HostileZip.record(id: "G-1", modified: "2024-01-01T00:00:00Z")], to: genuine)
        let imported = try CLI.run(["db", "import", genuine], environment: environment)
        try #require(imported.status == 0, "\(imported.stderr)")
    }

    @Test(arguments: [
        (HostileZip.Kind.zip64Huge, "big.json: declared size 5368709120 bytes is past the bound of 67108864 bytes per entry"),
        (.bomb, "bomb.json: declared size 209715200 bytes is past the bound of 67108864 bytes per entry"),
        (.overlapping, "R-1.json: overlaps "),
        (.offsetOverflow, "R-0.json: local header offset 9223372036854775792 lies outside the file"),
        (.controlName, #"R-0.json\x0A\x1B[2Jforged.json: declared size 104857600 bytes"#),
    ])
    func importOfAHostileZipIsOneLineAndExitTwo(kind: HostileZip.Kind, problem: String) throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try importGenuine()
        let path = home + "/\(kind.rawValue).zip"
        try HostileZip.write(kind, to: path)
        let result = try CLI.run(["db", "import", path], environment: environment)
        #expect(result.status == 2, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(result.stderr.hasPrefix("sentinel: \(path)!\(problem)"), "\(result.stderr.suffix(300))")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(try records() == "records   1 (0 withdrawn)")
    }

    @Test func updateFromAMirrorServingAFiveGiBEntryFailsAndLeavesNoTemporaryFile() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try importGenuine()
        let path = home + "/huge.zip"
        try HostileZip.write(.zip64Huge, to: path)
        let body = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        try FileManager.default.removeItem(atPath: path)
        let server = try LoopbackHTTPServer { _ in .init(status: 200, body: body) }
        defer { server.stop() }
        let result = try CLI.run(["db", "update", "--ecosystem", "PyPI", "--url", server.baseURL], environment: environment)
        #expect(result.status == 1, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(
            result.stderr
                == "sentinel: PyPI: \(server.baseURL)/PyPI/all.zip!big.json: declared size 5368709120 bytes is past the bound of 67108864 bytes per entry; its data is unchanged\n"
        )
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix(".osv-export-") }
        #expect(leftovers.isEmpty)
        #expect(try records() == "records   1 (0 withdrawn)")
    }

    /// A mirror's export withdraws GHSA-x and dates it 2999; the genuine export imported after it
    /// brings the advisory back, and `scan` reports it.
    @Test func aMirrorsFutureDatedWithdrawalDoesNotHideTheAdvisoryForGood() throws {
        defer { try? FileManager.default.removeItem(atPath: home) }
        try FileManager.default.createDirectory(atPath: home + "/repo", withIntermediateDirectories: true)
        try Data("z==1.0\n".utf8).write(to: URL(fileURLWithPath: home + "/repo/requirements.txt"))
        try HostileZip.export(
            ["GHSA-x.json": HostileZip.record(id: "GHSA-x", modified: "2999-01-01T00:00:00Z", withdrawn: "2024-06-01T00:00:00Z")],
            to: home + "/hostile.zip")
        try HostileZip.export(["GHSA-x.json": HostileZip.record(id: "GHSA-x", modified: "2024-05-01T00:00:00Z")], to: home + "/genuine.zip")
        #expect(try CLI.run(["db", "import", home + "/hostile.zip"], environment: environment).status == 0)
        let hidden = try CLI.run(["scan", home + "/repo", "--tools", "osv"], environment: environment, timeout: 600)
        #expect(!hidden.stdout.contains("GHSA-x"), "the mirror withdrew it: \(hidden.stdout)")
        #expect(try CLI.run(["db", "import", home + "/genuine.zip"], environment: environment).status == 0)
        let back = try CLI.run(["scan", home + "/repo", "--tools", "osv"], environment: environment, timeout: 600)
        #expect(back.stdout.contains("GHSA-x"), "status \(back.status): \(back.stdout.suffix(500)) \(back.stderr.suffix(300))")
    }
}
