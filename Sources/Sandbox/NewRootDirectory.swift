#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
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
    /// The directory itself, open and locked until `remove()` (closing it releases the lock).
    private var lock: DirectoryDescriptor?

    private init(path: String, lock: DirectoryDescriptor) {
        self.path = path
        self.lock = lock
    }

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
        do throws(Errno) {
            let directory = try DirectoryDescriptor.workingDirectory.openDirectory(path)
            guard flock(directory.rawValue, LOCK_EX | LOCK_NB) == 0 else { throw Errno.current }
            return NewRootDirectory(path: path, lock: directory)
        } catch {
            try? DirectoryDescriptor.workingDirectory.remove(path, directory: true)
            throw SentinelError.sandboxSetup(stage: "flock", errno: error, detail: path)
        }
    }

    /// Removes the directory, then releases its lock. Once only; later calls do nothing.
    public func remove() {
        guard lock != nil else { return }
        try? DirectoryDescriptor.workingDirectory.remove(path, directory: true)
        lock = nil
    }

    /// Removes the directories in `base` left by launchers that died. One goes only when its
    /// launcher pid no longer exists *and* no process holds its lock: a live launcher holds
    /// the lock from just after `mkdtemp` (its pid covers that moment), so its directory is
    /// never touched, whatever pid namespace it runs in. Acts through `base`'s descriptor on
    /// names it opened without following links, and only with `rmdir` (a directory with
    /// anything in it stays). Names without a pid, made by earlier versions that took no lock,
    /// are left alone: a live one would look the same.
    static func removeStale(in base: String) {
        guard let baseDirectory = try? DirectoryDescriptor.workingDirectory.openDirectory(base) else { return }
        for name in (try? baseDirectory.entries().map(\.text)) ?? [] {
            guard let owner = launcherPID(name), owner != getpid() else { continue }
            if kill(owner, 0) == 0 || errno == EPERM { continue }
            guard let directory = try? baseDirectory.openDirectory(name) else { continue }
            // Held (and so locked) until the directory is gone.
            defer { withExtendedLifetime(directory) {} }
            guard flock(directory.rawValue, LOCK_EX | LOCK_NB) == 0, let opened = try? directory.status(),
                let named = try? baseDirectory.status(of: name),
                opened.st_dev == named.st_dev, opened.st_ino == named.st_ino
            else { continue }
            try? baseDirectory.remove(name, directory: true)
        }
    }

    /// The launcher pid in `sentinel-root-<pid>-XXXXXX`, nil for any other name.
    static func launcherPID(_ name: String) -> pid_t? {
        guard name.hasPrefix(prefix) else { return nil }
        let parts = name.dropFirst(prefix.count).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 6, let pid = pid_t(parts[0]), pid > 0 else { return nil }
        return pid
    }

    /// The base directory when it is the launcher's alone (`/run/sentinel` as root,
    /// `$XDG_RUNTIME_DIR/sentinel` otherwise), created if missing; nil when there is none.
    static func privateBase() -> String? {
        guard let base = try? baseDirectory(), base.isPrivate else { return nil }
        return base.path
    }

    /// The base directory and whether it is ours alone (so stale directories may be swept).
    private static func baseDirectory() throws -> (path: String, isPrivate: Bool) {
        if geteuid() == 0 {
            try ensurePrivateDirectory(rootBase)
            return (rootBase, true)
        }
        if let runtime = ProcessEnvironment.value("XDG_RUNTIME_DIR"), runtime.hasPrefix("/"),
            (try? ensurePrivateDirectory(runtime + "/sentinel")) != nil
        {
            return (runtime + "/sentinel", true)
        }
        // A shared temporary directory: nothing there is swept.
        let temporary = ProcessEnvironment.value("TMPDIR").flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return (temporary.count > 1 && temporary.hasSuffix("/") ? String(temporary.dropLast()) : temporary, false)
    }

    /// Creates `path` 0700 if absent; refuses it unless it is a real directory of ours that no
    /// one else may write or enter.
    static func ensurePrivateDirectory(_ path: String) throws {
        do throws(Errno) {
            try DirectoryDescriptor.workingDirectory.makeDirectory(path, mode: 0o700)
        } catch {
            guard error.rawValue == EEXIST else { throw SentinelError.sandboxSetup(stage: "mkdir", errno: error, detail: path) }
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
