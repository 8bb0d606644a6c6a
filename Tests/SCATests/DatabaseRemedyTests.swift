import Foundation
import Testing

@testable import SCA
import TestSupport

/// `pypiRemedy`: the smallest version clearing every advisory of a package, judged against all
/// its advisories, in the shape of pyyaml 5.3 (CVE-2020-1747 fixed in 5.3.1, CVE-2020-14343
/// only in 5.4).
@Suite("Database remedy")
struct DatabaseRemedyTests {
    static func database(_ records: [(String, String)]) throws -> (OSVDatabase, URL) {
        let dir = try TemporaryDirectory.url("sca")
        for (id, events) in records {
            try RecordFiles.write(RecordFiles.json(id: id, name: "yamlish", events: events), "\(id).json", in: dir)
        }
        let db = try OSVDatabase(path: dir.appendingPathComponent("osv.sqlite").path)
        _ = try db.import(paths: [dir.path])
        return (db, dir)
    }

    @Test("one advisory's fix leaves another open: the version that clears both comes first")
    func clearsThePackage() throws {
        let (db, dir) = try Self.database([
            ("Y-1747", #"{"introduced": "0"}, {"fixed": "5.3.1"}"#), ("Y-14343", #"{"introduced": "0"}, {"fixed": "5.4"}"#),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let remedy = try db.pypiRemedy(package: "yamlish", installed: "5.3")
        #expect(remedy.advisories == ["Y-14343", "Y-1747"])
        #expect(remedy.options.map(\.version) == ["5.4", "5.3.1"])
        #expect(remedy.options[0].clears == ["Y-14343", "Y-1747"] && remedy.options[0].stillOpen.isEmpty)
        #expect(remedy.options[1].clears == ["Y-1747"] && remedy.options[1].stillOpen == ["Y-14343"])
        #expect(remedy.options.allSatisfy { $0.sameMajor })
    }

    @Test("a fix that is itself affected by a later advisory pulls that advisory's fix in; a major bump is marked")
    func followsLaterAdvisories() throws {
        let (db, dir) = try Self.database([
            ("Y-1", #"{"introduced": "0"}, {"fixed": "5.3.1"}"#),
            ("Y-2", #"{"introduced": "5.3.1"}, {"fixed": "6.0"}"#),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let remedy = try db.pypiRemedy(package: "yamlish", installed: "5.3")
        #expect(remedy.advisories == ["Y-1"])
        #expect(remedy.options.map(\.version) == ["6.0", "5.3.1"])
        #expect(remedy.options[0].sameMajor == false && remedy.options[0].stillOpen.isEmpty)
        #expect(remedy.options[1].stillOpen == ["Y-2"])
    }

    @Test("no version clears everything: the one leaving fewest open first, smallest among equals")
    func noVersionClearsAll() throws {
        let (db, dir) = try Self.database([
            ("Y-1", #"{"introduced": "0"}, {"fixed": "1.1"}"#), ("Y-2", #"{"introduced": "0"}, {"fixed": "1.2"}"#),
            ("Y-3", #"{"introduced": "0"}"#),
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let remedy = try db.pypiRemedy(package: "yamlish", installed: "1.0")
        #expect(remedy.options.map(\.version) == ["1.2", "1.1"])
        #expect(remedy.options[0].stillOpen == ["Y-3"])
    }
}
