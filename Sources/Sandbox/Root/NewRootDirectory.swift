#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
import Support

/// The empty directory one run's root is mounted on (in the sandbox's own mount namespace).
///
/// In the launcher's private base (`/run/sentinel` as root, `$XDG_RUNTIME_DIR/sentinel`
/// otherwise) every run shares one directory, `root`, made once and never removed: the init
/// mounts its tmpfs on it after making every mount of its new namespace private, so concurrent
/// runs each see their own root there and the host sees an empty directory. Nothing is made
/// or removed per run (a fresh directory, its lock and its removal cost ~0.3 ms of every
/// launch, on the way to the payload), and a launcher killed with `kill -9` leaves nothing.
///
/// In a shared temporary directory (no private base) a fixed name could be pre-created by any
/// local user (every run then fails) or raced while it is made, so each run there gets a fresh
/// one by `mkdtemp`, named after its launcher (`sentinel-root-<pid>-XXXXXX`), locked (`flock`
/// on the directory itself) and removed after the run. Earlier versions made such directories
/// in the private base too; the first launch that makes `root` removes the stale ones
/// (`removeStale`).
public final class NewRootDirectory {
    /// Where a root launcher keeps its run directories.
    public static let rootBase = "/run/sentinel"
    static let prefix = "sentinel-root-"
    /// The mount point every run in a private base shares.
    static let sharedName = "root"
    /// The root launcher's mount point (`/run/sentinel/root`).
    public static let rootMountPoint = rootBase + "/" + sharedName

    /// The directory's path.
    public let path: String
    /// A run's own directory, open and locked until `remove()` (closing it releases the lock);
    /// nil for the shared mount point, which stays.
    private var lock: DirectoryDescriptor?

    private init(path: String, lock: DirectoryDescriptor?) {
        self.path = path
        self.lock = lock
    }

    /// Runs `body` with the directory's path, removed afterwards when it is the run's own.
    public static func with<T>(_ body: (String) throws -> T) throws -> T {
        let directory = try create()
        defer { directory.remove() }
        return try body(directory.path)
    }

    /// The directory for one run; the caller calls `remove()` after the run.
    public static func create() throws -> NewRootDirectory {
        try create(in: baseDirectory())
    }

    /// `create()` in `base` (tests).
    static func create(in base: (path: String, isPrivate: Bool)) throws -> NewRootDirectory {
        if base.isPrivate {
            let path = base.path + "/" + sharedName
            if try ensurePrivateDirectory(path) { removeStale(in: base.path) }
            return NewRootDirectory(path: path, lock: nil)
        }
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

    /// Removes a run's own directory, then releases its lock; the shared mount point stays.
    /// Once only; later calls do nothing.
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

    /// The base directory and whether it is ours alone (so it holds the shared mount point).
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

    /// Creates `path` 0700 if absent (and then returns true); refuses it unless it is a real
    /// directory of ours that no one else may write or enter.
    @discardableResult
    static func ensurePrivateDirectory(_ path: String) throws -> Bool {
        var created = true
        do throws(Errno) {
            try DirectoryDescriptor.workingDirectory.makeDirectory(path, mode: 0o700)
        } catch {
            guard error.rawValue == EEXIST else { throw SentinelError.sandboxSetup(stage: "mkdir", errno: error, detail: path) }
            created = false
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
        return created
    }
}
