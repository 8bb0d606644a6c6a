#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Testing

@testable import Findings
import TestSupport

@Suite struct BaselineTests {
    @Test func writeThenFilterReportsOnlyNewFindings() throws {
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/baseline.json"
        let old = [Fixtures.sqlInjection(), Fixtures.banditShell()]
        try Baseline.write(old, to: path)

        // The old findings moved down 10 lines (same fingerprints); one new finding appeared.
        let now = [Fixtures.sqlInjection(line: 22), Fixtures.banditShell(line: 40), Fixtures.weakHash()]
        let baseline = try Baseline.load(path)
        let (new, known) = baseline.filter(now)
        #expect(new.map(\.ruleId) == ["python.weak-hash"])
        #expect(known.count == 2)
        #expect(baseline.contains(Fixtures.sqlInjection(line: 99)))
    }

    @Test func loadedBaselineIndexesFingerprints() throws {
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/baseline.json"
        try Baseline.write([Fixtures.weakHash()], to: path)
        let loaded = try Baseline.load(path)
        #expect(loaded.fingerprints == [Fixtures.weakHash().fingerprint])
        #expect(loaded == Baseline(findings: [Fixtures.weakHash()]))
        #expect(!(try String(contentsOfFile: path, encoding: .utf8)).contains("fingerprints"), "the index is not written")
    }

    @Test func fileIsReadableAndStable() throws {
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/b.json"
        try Baseline.write([Fixtures.banditShell(), Fixtures.sqlInjection(), Fixtures.sqlInjection()], to: path)
        let first = try String(contentsOfFile: path, encoding: .utf8)
        try Baseline.write([Fixtures.sqlInjection(), Fixtures.banditShell()], to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == first, "order and duplicates do not change the file")

        let object = try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any]
        #expect(object?["format"] as? String == "sentinel-baseline")
        #expect(object?["version"] as? Int == 1)
        let entries = object?["entries"] as? [[String: Any]]
        #expect(entries?.count == 2)
        #expect(entries?.first?["file"] as? String == "app/db.py")
        #expect(entries?.first?["ruleId"] as? String == "python.sqli")
        #expect(entries?.first?["fingerprint"] as? String == Fixtures.sqlInjection().fingerprint)
    }

    @Test(arguments: [
        ("{not json", "not a Sentinel baseline: invalid JSON"),
        (#"{"format": "sentinel-baseline", "version": 1}"#, "not a Sentinel baseline: missing key 'entries'"),
        (#"{"format": "other", "version": 1, "entries": []}"#, "not a Sentinel baseline: format is 'other'"),
        (#"{"format": "sentinel-baseline", "version": 7, "entries": []}"#, "unsupported baseline version 7"),
        (
            #"{"format": "sentinel-baseline", "version": 1, "entries": [{"ruleId": "x"}]}"#,
            "not a Sentinel baseline: missing key 'fingerprint'"
        ),
        (#"[1, 2]"#, "not a Sentinel baseline: expected"),
    ])
    func badFilesGiveOneLineErrors(content: String, expected: String) throws {
        let directory = try TemporaryDirectory.make("findings")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/bad.json"
        try content.write(toFile: path, atomically: true, encoding: .utf8)
        #expect {
            try Baseline.load(path)
        } throws: { error in
            guard let error = error as? SentinelError else { return false }
            return error.code == .invalidInput && error.message.hasPrefix(path + ": " + expected)
                && !error.message.contains("\n")
        }
    }

    @Test func missingFileIsInvalidInput() {
        #expect {
            try Baseline.load("/nonexistent/baseline.json")
        } throws: { error in
            (error as? SentinelError)?.message == "/nonexistent/baseline.json: cannot read baseline (missing or unreadable)"
        }
    }

    /// A baseline usually lives in the repository; a FIFO shipped there is named for what it is.
    @Test func fifoBaselineIsRefusedAsSpecialFile() throws {
        let path = NSTemporaryDirectory() + "baseline-fifo-\(UUID().uuidString).json"
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        #expect {
            try Baseline.load(path)
        } throws: { error in
            (error as? SentinelError)?.message == "\(path): not a regular file (baseline)"
        }
    }
}
