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

    /// Issue 78, W2: a user who owns a *parent* of root's state directory swaps the state
    /// directory for a link to a directory of root's. Root must not make its databases there:
    /// every directory above the state is checked from `/`, not the last one alone.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another user"))
    func aParentAnotherUserOwnsIsRefused() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let theirs = root + "/theirs"
        try PrivateDirectory.create(theirs)
        #expect(chmod(theirs, 0o755) == 0 && chown(theirs, 65_534, 65_534) == 0)
        let state = theirs + "/state"
        // Root's own directory elsewhere, which she points the state at.
        let roots = root + "/roots"
        try PrivateDirectory.create(roots)
        #expect(symlink(roots, state) == 0 && lchown(state, 65_534, 65_534) == 0)
        let attempts: [() throws -> Void] = [
            { _ = try Database(path: state + "/heal.sqlite") }, { try StateDirectory(path: state).create() },
        ]
        for attempt in attempts {
            do {
                try attempt()
                Issue.record("a state directory below a directory of uid 65534 was accepted")
            } catch let error as SentinelError {
                #expect(error.code == .invalidInput)
                #expect(error.message.hasPrefix("\(state): \(theirs) is owned by uid 65534, not by root or uid 0"), "\(error.message)")
            }
        }
        #expect(!exists(roots + "/heal.sqlite"))
        // Even a real directory of root's there: she could swap it at any time.
        #expect(unlink(state) == 0 && mkdir(state, 0o700) == 0)
        #expect(throws: SentinelError.self) { _ = try Database(path: state + "/heal.sqlite") }
        #expect(!exists(state + "/heal.sqlite"))
    }

    /// In a sticky shared directory (`/tmp`) anyone may add a name: a link another user made at
    /// the state's name is not followed, one of root's own is.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a link to another user"))
    func aLinkAnotherUserPlantedInASharedDirectoryIsNotFollowed() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shared = root + "/shared"
        #expect(mkdir(shared, 0o700) == 0 && chmod(shared, 0o1777) == 0)
        let roots = root + "/roots"
        try PrivateDirectory.create(roots)
        let state = shared + "/sentinel"
        #expect(symlink(roots, state) == 0 && lchown(state, 65_534, 65_534) == 0)
        #expect(throws: SentinelError.self) { try StateDirectory(path: state).create() }
        #expect(throws: SentinelError.self) { _ = try Database(path: state + "/autonomy.sqlite") }
        #expect(!exists(roots + "/autonomy.sqlite"))
        // The same link, root's own: followed.
        #expect(lchown(state, 0, 0) == 0)
        _ = try Database(path: state + "/autonomy.sqlite")
        #expect(exists(roots + "/autonomy.sqlite"))
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
