import Foundation
import Testing

@testable import Store
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27: state an older Sentinel kept in `./.sentinel` moves to the XDG directories, but
/// only from a directory the user made through Sentinel and never through a link.
@Suite struct LegacyStateMigrationTests {
    let root: String
    let legacy: String
    let state: StateDirectory

    init() throws {
        root = try TemporaryDirectory.make("migration")
        legacy = root + "/repo/.sentinel"
        state = StateDirectory(path: root + "/home/.local/state/sentinel", cachePath: root + "/home/.cache/sentinel")
        try FileManager.default.createDirectory(atPath: root + "/repo", withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String = "x") throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: legacy + "/" + name))
    }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test func movesSentinelsOwnEntriesAndLeavesTheRest() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.create(legacy)
        for name in ["osv.sqlite", "osv.sqlite-wal", "heal.sqlite", "audit.jsonl", "audit.jsonl.head", "policy.yml", "STOP"] {
            try write(name)
        }
        try PrivateDirectory.create(legacy + "/proposals/p1")
        try write("proposals/p1/PR.md")

        let outcome = try LegacyStateMigration.migrate(legacy, to: state)
        #expect(outcome.moved.map(\.name) == ["audit.jsonl", "heal.sqlite", "proposals", "osv.sqlite"])
        #expect(outcome.kept.isEmpty)
        for name in ["audit.jsonl", "audit.jsonl.head", "heal.sqlite", "proposals/p1/PR.md"] {
            #expect(exists(state.file(name)), "\(name)")
            #expect(!exists(legacy + "/" + name))
        }
        #expect(exists(state.osvDatabase) && exists(state.osvDatabase + "-wal"))
        // A repository's own policy and kill switch are not Sentinel's state: they stay.
        #expect(exists(legacy + "/policy.yml") && exists(legacy + "/STOP"))
        #expect(
            outcome.notice(from: legacy)
                == "moved the state in \(legacy): audit.jsonl, heal.sqlite, proposals to \(state.path); osv.sqlite to \(state.cachePath)")
        // Nothing left to move: nothing to say.
        #expect(try LegacyStateMigration.migrate(legacy, to: state).notice(from: legacy) == nil)
    }

    @Test func anEmptiedDirectoryIsRemoved() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.create(legacy)
        try write("heal.sqlite")
        _ = try LegacyStateMigration.migrate(legacy, to: state)
        #expect(!exists(legacy))
    }

    /// A checkout makes directories with the umask's mode, a link or another owner is not the user's.
    @Test(arguments: ["mode 0755", "a link", "another owner"])
    func aDirectoryTheUserDidNotMakeThroughSentinelIsNotImported(_ kind: String) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let real = kind == "a link" ? root + "/elsewhere" : legacy
        try PrivateDirectory.create(real)
        try Data("x".utf8).write(to: URL(fileURLWithPath: real + "/heal.sqlite"))
        switch kind {
        case "mode 0755": #expect(chmod(real, 0o755) == 0)
        case "a link": #expect(symlink(real, legacy) == 0)
        default: #expect(chown(real, 65_534, 65_534) == 0)
        }
        let outcome = try LegacyStateMigration.migrate(legacy, to: state)
        #expect(outcome == LegacyStateMigration.Outcome())
        #expect(exists(real + "/heal.sqlite"))
        #expect(!exists(state.path))
    }

    @Test func linksAndForeignFilesInsideStay() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.create(legacy + "/proposals/p1")
        #expect(symlink("/etc/passwd", legacy + "/audit.jsonl") == 0)
        #expect(symlink("/etc", legacy + "/proposals/p1/PR.md") == 0)
        try write("heal.sqlite")
        #expect(chown(legacy + "/heal.sqlite", 65_534, 65_534) == 0)
        try write("osv.sqlite")
        #expect(mkfifo(legacy + "/osv.sqlite-wal", 0o600) == 0)
        let outcome = try LegacyStateMigration.migrate(legacy, to: state)
        #expect(outcome.moved.isEmpty)
        #expect(
            outcome.kept == [
                .init(name: "audit.jsonl", detail: "not a regular file"),
                .init(name: "heal.sqlite", detail: "not owned by you"),
                .init(name: "proposals", detail: "holds PR.md, not a regular file or directory"),
                .init(name: "osv.sqlite", detail: "not a regular file"),
            ])
        #expect(exists(legacy + "/osv.sqlite") && exists(legacy + "/proposals/p1/PR.md"))
    }

    @Test func stateTheDestinationHoldsIsNeverReplaced() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        try PrivateDirectory.create(legacy)
        try write("heal.sqlite", "old")
        try write("audit.jsonl", "old")
        try write("audit.jsonl.head", "old")
        try PrivateDirectory.create(state.path)
        try Data("new".utf8).write(to: URL(fileURLWithPath: state.file("heal.sqlite")))
        // A companion already there keeps its whole group.
        try Data("new".utf8).write(to: URL(fileURLWithPath: state.file("audit.jsonl.head")))
        let outcome = try LegacyStateMigration.migrate(legacy, to: state)
        #expect(outcome.moved.isEmpty)
        #expect(outcome.kept.map(\.name) == ["audit.jsonl", "heal.sqlite"])
        #expect(outcome.kept.allSatisfy { $0.detail == "\(state.path) has one already" })
        #expect(try String(contentsOfFile: state.file("heal.sqlite"), encoding: .utf8) == "new")
        #expect(try String(contentsOfFile: legacy + "/audit.jsonl", encoding: .utf8) == "old")
        #expect(
            outcome.notice(from: legacy)
                == "left in \(legacy): audit.jsonl (\(state.path) has one already), heal.sqlite (\(state.path) has one already)")
    }
}
