import Foundation
import Support
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile inputs round 3, finding 21: a heal killed with -9 left its repository snapshot in
/// `$TMPDIR` for good. Scratch directories are locked by their maker; the next one of the same
/// prefix removes those nobody holds.
struct ScratchDirectorySweepTests {
    @Test("an abandoned directory is swept by the next make; a held or recent one, or another prefix's, stays")
    func abandonedAreSwept() throws {
        let base = NSTemporaryDirectory() + "sweep-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let old = Date().addingTimeInterval(-7200)
        func directory(_ name: String, age: Date) throws -> String {
            let path = base + "/" + name
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try "secret".write(toFile: path + "/snapshot", atomically: false, encoding: .utf8)
            try FileManager.default.setAttributes([.modificationDate: age], ofItemAtPath: path)
            return path
        }
        let abandoned = try directory("sentinel-heal-AAAAAA", age: old)
        let held = try directory("sentinel-heal-BBBBBB", age: old)
        let recent = try directory("sentinel-heal-CCCCCC", age: Date())
        let other = try directory("sentinel-wapiti-DDDDDD", age: old)
        let holder = open(held, O_RDONLY | O_DIRECTORY)
        defer { close(holder) }
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)

        let made = try ScratchDirectory.make(prefix: "sentinel-heal", in: base)
        #expect(!FileManager.default.fileExists(atPath: abandoned))
        #expect(FileManager.default.fileExists(atPath: held) && FileManager.default.fileExists(atPath: recent))
        #expect(FileManager.default.fileExists(atPath: other))
        // The new one is held by its maker until removed.
        let probe = open(made, O_RDONLY | O_DIRECTORY)
        defer { close(probe) }
        #expect(flock(probe, LOCK_EX | LOCK_NB) != 0)
        ScratchDirectory.remove(made)
        #expect(!FileManager.default.fileExists(atPath: made))
    }

    @Test("ownBase makes this user's own subdirectory; a link, another's or an open one there leaves the base")
    func ownBaseOnlyWhereTrusted() throws {
        let base = NSTemporaryDirectory() + "own-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let own = ScratchDirectory.ownBase("kind-a", in: base)
        #expect(own == base + "/kind-a")
        var info = stat()
        #expect(lstat(own, &info) == 0 && info.st_mode & 0o777 == 0o700 && info.st_uid == geteuid())
        #expect(ScratchDirectory.ownBase("kind-a", in: base) == own, "made once, found again")
        // What another user could put there first: a link to a directory of hers, a directory others may write.
        try FileManager.default.createDirectory(atPath: base + "/elsewhere", withIntermediateDirectories: false)
        #expect(symlink(base + "/elsewhere", base + "/kind-link") == 0)
        #expect(ScratchDirectory.ownBase("kind-link", in: base) == base)
        try FileManager.default.createDirectory(
            atPath: base + "/kind-open", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        chmod(base + "/kind-open", 0o777)
        #expect(ScratchDirectory.ownBase("kind-open", in: base) == base)
        if geteuid() == 0 {
            try FileManager.default.createDirectory(
                atPath: base + "/kind-theirs", withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            #expect(chown(base + "/kind-theirs", 65534, 65534) == 0)
            #expect(ScratchDirectory.ownBase("kind-theirs", in: base) == base)
        }
    }

    @Test("sweep removes the abandoned directories of every prefix and counts them")
    func sweepEveryPrefix() throws {
        let base = try ScratchDirectory.privateBase(NSTemporaryDirectory() + "sweep-" + UUID().uuidString + "/state/tmp")
        defer { try? FileManager.default.removeItem(atPath: PathText.directory(of: PathText.directory(of: base))) }
        var info = stat()
        #expect(stat(base, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let old = Date().addingTimeInterval(-7200)
        for name in ["sentinel-heal-AAAAAA", "sentinel-analysis-BBBBBB", "x"] {
            try FileManager.default.createDirectory(
                atPath: base + "/" + name, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: base + "/" + name)
        }
        #expect(ScratchDirectory.sweep(base) == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base) == ["x"])
    }

    @Test("a base that is a link or open to others is refused")
    func privateBaseRefusesLinksAndOpenDirectories() throws {
        let root = NSTemporaryDirectory() + "sweep-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: root + "/open", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root + "/open", 0o777)
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: "/tmp")
        #expect(throws: SentinelError.self) { try ScratchDirectory.privateBase(root + "/open") }
        #expect(throws: SentinelError.self) { try ScratchDirectory.privateBase(root + "/link") }
    }
}
