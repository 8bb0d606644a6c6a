#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

/// The empty directory one run's root is mounted on (in the sandbox's own mount namespace).
///
/// Fresh for every run and private to the launcher: a fixed name in a world-writable directory
/// could be pre-created by any local user (every run then fails) or raced while it is made.
/// As root it lives under `/run/sentinel` (created 0700; its owner and mode are checked);
/// otherwise under `$XDG_RUNTIME_DIR/sentinel` or the temporary directory, by `mkdtemp`.
///
/// A launcher killed with `kill -9` cannot remove its directory, so each is named after its
/// launcher (`sentinel-root-<pid>-XXXXXX`) and locked (`flock` on the directory itself) while the
/// launcher holds it, and every launch first removes the stale ones in its private base
/// (`removeStale`), as it does with cgroups.
public final class NewRootDirectory {
    /// Where a root launcher keeps its run directories.
    public static let rootBase = "/run/sentinel"
    static let prefix = "sentinel-root-"

    /// The directory's path.
    public let path: String
    /// The directory itself, open and locked until `remove()`.
    private var lock: Int32

    private init(path: String, lock: Int32) {
        self.path = path
        self.lock = lock
    }

    deinit { if lock >= 0 { close(lock) } }

    /// Runs `body` with a fresh directory's path, removed afterwards.
    public static func with<T>(_ body: (String) throws -> T) throws -> T {
        let directory = try create()
        defer { directory.remove() }
        return try body(directory.path)
    }

    /// Makes a fresh directory, locked; the caller calls `remove()` after the run.
    public static func create() throws -> NewRootDirectory {
        let base = try baseDirectory()
        if base.isPrivate { removeStale(in: base.path) }
        var template = Array("\(base.path)/\(prefix)\(getpid())-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw SentinelError.sandboxSetup(stage: "mkdtemp", errno: .current, detail: base.path)
        }
        let path = String(nulTerminated: template)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let error = SentinelError.sandboxSetup(stage: "flock", errno: .current, detail: path)
            if fd >= 0 { close(fd) }
            rmdir(path)
            throw error
        }
        return NewRootDirectory(path: path, lock: fd)
    }

    /// Removes the directory, then releases its lock. Once only; later calls do nothing.
    public func remove() {
        guard lock >= 0 else { return }
        rmdir(path)
        close(lock)
        lock = -1
    }

    /// Removes the directories in `base` left by launchers that died. One goes only when its
    /// launcher pid no longer exists *and* no process holds its lock: a live launcher holds
    /// the lock from just after `mkdtemp` (its pid covers that moment), so its directory is
    /// never touched, whatever pid namespace it runs in. Acts through `base`'s descriptor on
    /// names it opened without following links, and only with `rmdir` (a directory with
    /// anything in it stays). Names without a pid, made by earlier versions that took no lock,
    /// are left alone: a live one would look the same.
    static func removeStale(in base: String) {
        let baseFD = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard baseFD >= 0 else { return }
        defer { close(baseFD) }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? [] {
            guard let owner = launcherPID(name), owner != getpid() else { continue }
            if kill(owner, 0) == 0 || errno == EPERM { continue }
            let fd = openat(baseFD, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var opened = stat()
            var named = stat()
            guard flock(fd, LOCK_EX | LOCK_NB) == 0, fstat(fd, &opened) == 0,
                fstatat(baseFD, name, &named, AT_SYMLINK_NOFOLLOW) == 0,
                opened.st_dev == named.st_dev, opened.st_ino == named.st_ino
            else { continue }
            _ = unlinkat(baseFD, name, AT_REMOVEDIR)
        }
    }

    /// The launcher pid in `sentinel-root-<pid>-XXXXXX`, nil for any other name.
    static func launcherPID(_ name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// The base directory and whether it is ours alone (so stale directories may be swept).
    private static func baseDirectory() throws -> (path: String, isPrivate: Bool) {
        if geteuid() == 0 {
            try ensurePrivateDirectory(rootBase)
            return (rootBase, true)
        }
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/"),
            (try? ensurePrivateDirectory(runtime + "/sentinel")) != nil
        {
            return (runtime + "/sentinel", true)
        }
        // A shared temporary directory: nothing there is swept.
        let temporary = NSTemporaryDirectory()
        return (temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary, false)
    }

    /// Creates `path` 0700 if absent; refuses it unless it is a real directory of ours that no
    /// one else may write or enter.
    static func ensurePrivateDirectory(_ path: String) throws {
        if mkdir(path, 0o700) != 0, errno != EEXIST {
            throw SentinelError.sandboxSetup(stage: "mkdir", errno: .current, detail: path)
        }
        var info = stat()
        guard lstat(path, &info) == 0 else {
            throw SentinelError.sandboxSetup(stage: "lstat", errno: .current, detail: path)
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            let mode = String(info.st_mode & 0o7777, radix: 8)
            throw SentinelError.sandboxSetup(
                stage: "run directory", errno: nil,
                detail: "\(path) must be a directory owned by uid \(geteuid()) with mode 0700 (found uid \(info.st_uid), mode \(mode))")
        }
    }
}
