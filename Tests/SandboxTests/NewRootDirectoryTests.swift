#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Testing

@testable import Sandbox

/// Stale root directories (a launcher killed with `kill -9` cannot remove its own) go at the
/// next launch; a live launcher's never does, nor anything that is not such a directory.
struct NewRootDirectoryTests {
    /// A pid above pid_max: no process has it.
    static let deadPID = "99999999"

    @Test func namesCarryTheLauncherPid() {
        #expect(NewRootDirectory.launcherPID("sentinel-root-1234-aB3dE9") == 1234)
        for name in ["sentinel-root-aB3dE9", "sentinel-root--aB3dE9", "sentinel-root-12-abc", "sentinel-root-x-aB3dE9", "other-1-aB3dE9"] {
            #expect(NewRootDirectory.launcherPID(name) == nil, "\(name)")
        }
    }

    /// In a private base every run shares one mount point, made once and kept; the launch that
    /// makes it removes what earlier versions left, and later launches list nothing.
    @Test func runsInAPrivateBaseShareOneMountPointThatStays() throws {
        let base = TemporaryDirectory("root-base")
        chmod(base.path, 0o700)
        let stale = "sentinel-root-\(Self.deadPID)-aaaaaa"
        mkdir(base.path + "/" + stale, 0o700)
        let first = try NewRootDirectory.create(in: (base.path, true))
        let second = try NewRootDirectory.create(in: (base.path, true))
        #expect(first.path == base.path + "/root" && second.path == first.path)
        #expect(!FileManager.default.fileExists(atPath: base.path + "/" + stale), "the first launch sweeps")
        first.remove()
        second.remove()
        var info = stat()
        #expect(lstat(first.path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR && info.st_mode & 0o7777 == 0o700)

        mkdir(base.path + "/" + stale, 0o700)
        _ = try NewRootDirectory.create(in: (base.path, true))
        #expect(FileManager.default.fileExists(atPath: base.path + "/" + stale), "only the launch that makes the mount point sweeps")

        // A mount point someone else may enter is refused.
        chmod(first.path, 0o755)
        #expect(throws: SentinelError.self) { try NewRootDirectory.create(in: (base.path, true)) }
    }

    /// In a shared temporary directory each run gets a directory of its own, locked until removed.
    @Test func aDirectoryIsNamedAfterItsLauncherAndLockedUntilRemoved() throws {
        let base = TemporaryDirectory("root-shared-base")
        let directory = try NewRootDirectory.create(in: (base.path, false))
        let name = (directory.path as NSString).lastPathComponent
        #expect(NewRootDirectory.launcherPID(name) == getpid())
        let other = open(directory.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(other) }
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        directory.remove()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        directory.remove()
    }

    @Test func onlyUnlockedEmptyDirectoriesOfDeadLaunchersGo() throws {
        let base = TemporaryDirectory("root-base")
        let make = { (name: String) in mkdir(base.path + "/" + name, 0o700) }
        let stale = "sentinel-root-\(Self.deadPID)-aaaaaa"
        let locked = "sentinel-root-\(Self.deadPID)-bbbbbb"
        let full = "sentinel-root-\(Self.deadPID)-cccccc"
        let alive = "sentinel-root-1-dddddd"
        let mine = "sentinel-root-\(getpid())-eeeeee"
        let older = "sentinel-root-ffffff"
        for name in [stale, locked, full, alive, mine, older] { _ = make(name) }
        base.write(full + "/left", "x")
        // A link under a stale name must not be followed to its target.
        let target = TemporaryDirectory("root-target")
        symlink(target.path, base.path + "/sentinel-root-\(Self.deadPID)-gggggg")
        let holder = open(base.path + "/" + locked, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        #expect(flock(holder, LOCK_EX | LOCK_NB) == 0)

        NewRootDirectory.removeStale(in: base.path)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: base.path))
        #expect(left == [locked, full, alive, mine, older, "sentinel-root-\(Self.deadPID)-gggggg"])
        #expect(FileManager.default.fileExists(atPath: target.path))

        close(holder)  // its launcher is gone: the lock goes with it
        // Once every copy is closed: a child that another test forked while `holder` was open keeps a
        // copy of it (and so the lock) until it execs or exits, so the sweep is tried until then.
        let deadline = Date().addingTimeInterval(120)
        repeat {
            NewRootDirectory.removeStale(in: base.path)
            if !FileManager.default.fileExists(atPath: base.path + "/" + locked) { break }
            usleep(50_000)
        } while Date() < deadline
        #expect(!FileManager.default.fileExists(atPath: base.path + "/" + locked))
    }
}
