import Foundation
import Support
import Testing

@testable import Store
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 53, R13: in a state directory another user owns or may write, planted links made root
/// create its SQLite files where she chose. Such a directory is refused (exit status 2) before
/// anything is made in it, and a state file is never opened through a link.
@Suite struct HostileStateDirectoryTests {
    let root: String
    /// Where a planted link points: it must never be created.
    let victim: String

    init() throws {
        root = try TemporaryDirectory.make("hostile-state")
        victim = root + "/victim"
    }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another user"))
    func aDirectoryAnotherUserOwnsIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/theirs"
        try PrivateDirectory.create(state)
        #expect(chown(state, 65_534, 65_534) == 0)
        // What she would plant: the database's name, a link to where root should write.
        #expect(symlink(victim, state + "/heal.sqlite") == 0)
        let refusal = SentinelError(
            .invalidInput,
            "\(state): owned by uid 65534, not by you (uid 0): another user could plant links in it; keep state in a directory of your own")
        #expect(throws: refusal) { _ = try Database(path: state + "/heal.sqlite") }
        #expect(throws: refusal) { try StateDirectory(path: state).create() }
        #expect(throws: refusal) { try PrivateDirectory.create(state) }
        #expect(!exists(victim))
    }

    @Test(arguments: [0o777, 0o775, 0o757, 0o1777, 0o1770] as [mode_t])
    func aDirectoryOthersMayWriteIsRefused(_ mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/shared"
        try PrivateDirectory.create(state)
        #expect(chmod(state, mode) == 0)
        #expect(symlink(victim, state + "/autonomy.sqlite") == 0)
        let refusal = SentinelError(
            .invalidInput,
            "\(state): group or others may write it (mode \(String(mode, radix: 8))): anyone could plant links in it; "
                + "chmod go-w it or keep state elsewhere")
        #expect(throws: refusal) { _ = try Database(path: state + "/autonomy.sqlite") }
        #expect(throws: refusal) { try StateDirectory(path: state).create() }
        // Sentinel's own subdirectories inside it (proposals, the queue's locks) are refused too.
        #expect(throws: refusal) { try PrivateDirectory.create(state) }
        #expect(!exists(victim))
    }

    /// A link at a database's own name is not followed, even in a directory of the user's.
    @Test func aLinkAtTheDatabaseNameIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/mine"
        try PrivateDirectory.create(state)
        #expect(symlink(victim, state + "/heal.sqlite") == 0)
        #expect(
            throws: SentinelError(
                .invalidInput, "\(state)/heal.sqlite: a symbolic link; a state file is opened only as itself (move the link aside)")
        ) { _ = try Database(path: state + "/heal.sqlite") }
        #expect(!exists(victim))
    }

    /// What the user points at stays usable: a directory of theirs (0700 or 0755), reached
    /// through a link of theirs, under a sticky shared parent such as /tmp.
    @Test(arguments: [0o700, 0o755, 0o711] as [mode_t])
    func theUsersOwnDirectoryStillWorks(_ mode: mode_t) throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/real"
        try PrivateDirectory.create(state)
        #expect(chmod(state, mode) == 0)
        #expect(symlink(state, root + "/link") == 0)
        for directory in [state, root + "/link"] {
            let database = try Database(path: directory + "/heal.sqlite")
            try database.execute("CREATE TABLE IF NOT EXISTS t(x); INSERT INTO t VALUES (1)")
            try StateDirectory(path: directory).create()
        }
        var info = stat()
        #expect(lstat(state + "/heal.sqlite", &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
        // Missing components are made 0700 and accepted.
        _ = try Database(path: root + "/new/nested/fleet.sqlite")
        #expect(stat(root + "/new/nested", &info) == 0 && info.st_mode & 0o777 == 0o700)
    }
}
