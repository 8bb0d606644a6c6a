#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
import Synchronization

/// A private (0700) temporary directory removed after use. Its maker holds an exclusive `flock`
/// on it until `remove`: a process killed with -9 leaves its directory behind (a heal's snapshot
/// holds the repository, secrets included), and the next `make` of the same prefix by the same
/// user finds the lock free and removes it. A lock is a process's, across pid namespaces (an
/// analysis sandbox's directories are swept by the next analysis, or by root's next run).
public enum ScratchDirectory {
    /// Runs `body` with a new private directory under `$TMPDIR` (or /tmp) and removes it after.
    public static func with<T>(_ body: (String) throws -> T) throws -> T {
        let path = try make()
        defer { remove(path) }
        return try body(path)
    }

    /// `$TMPDIR`, else /tmp: where `make` puts a directory when given no base.
    public static var defaultBase: String {
        ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
    }

    /// Makes a new private directory and returns its path; the caller removes it with `remove`.
    /// Abandoned ones of the same prefix are swept first.
    /// `base`: where (default `$TMPDIR`, else /tmp).
    public static func make(prefix: String = "sentinel", in base: String? = nil) throws -> String {
        let base = base ?? defaultBase
        sweepAbandoned(in: base, prefix: prefix)
        var template = Array("\(base)/\(prefix)-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SentinelError(.io, "\(base): cannot make a temporary directory: \(Errno.current)", errno: .current)
        }
        let path = String(cString: made)
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if fd >= 0 {
            if flock(fd, LOCK_EX | LOCK_NB) == 0 {
                held.withLock { $0[path] = fd }
            } else {
                close(fd)
            }
        }
        return path
    }

    /// Removes a directory `make` made, with what it holds (links are removed, never followed),
    /// and lets go of its lock. For a directory someone else filled, only once nothing of theirs
    /// runs any more.
    public static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
        if let fd = held.withLock({ $0.removeValue(forKey: path) }) { close(fd) }
    }

    /// `directory`, made owner-only (0700) when missing, as a base for `make`: a state
    /// directory's `tmp`, where a heal's snapshot of a repository lives on the state's volume
    /// rather than in a shared `$TMPDIR`. Refused when it is a link, someone else's, or open to
    /// others.
    public static func privateBase(_ directory: String) throws -> String {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            throw SentinelError(.io, "\(directory): cannot open the scratch directory: \(Errno.current)", errno: .current)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0 else {
            throw SentinelError(.io, "\(directory): the scratch directory must be this user's own, mode 0700")
        }
        return directory
    }

    /// `base/name`, made owner-only when missing, for one kind of this user's directories: a
    /// sweep there lists those alone, where one in a shared `/tmp` read every entry of it at
    /// each launch (5,000 entries cost 3 ms of a 70 ms scan). `base` itself when `name` there is
    /// a link, someone else's or open to others (another user may make it first: issue 78, W3).
    public static func ownBase(_ name: String, in base: String = defaultBase) -> String {
        (try? privateBase(base + "/" + name)) ?? base
    }

    /// Removes every abandoned directory `make` left in `base` (any `sentinel…` prefix: `base`
    /// may be a shared `/tmp`, where other programs' directories are none of its business): this
    /// user's, older than `abandonedAfter`, with nobody holding its lock. Returns how many it removed.
    @discardableResult
    public static func sweep(_ base: String) -> Int {
        // `prefix-XXXXXX`: what `make` names, whatever the prefix.
        sweepAbandoned(in: base) { $0.hasPrefix("sentinel") && $0.utf8.count > 7 && $0.utf8.dropLast(6).last == UInt8(ascii: "-") }
    }

    /// Removes `directory` when it holds nothing (a base `privateBase` made that is not used).
    public static func removeIfEmpty(_ directory: String) {
        _ = rmdir(directory)
    }

    /// Makes a private directory `base/<prefix><16 random hex digits>` and holds an exclusive
    /// `flock` on it until `remove` (or this process's end, however it ends): a process's own
    /// directory, which `sweepUnheld` removes once its owner is gone. Made under a hidden
    /// temporary name (which no sweeper's prefix matches) and renamed once locked, never over
    /// anything (`RENAME_NOREPLACE`), so that no sweeper ever sees it unlocked. The name is not
    /// predictable: in a shared `$TMPDIR` a link or directory another user made first at a name
    /// she could compute would stop this process (issue 78, W3); a name taken anyway is drawn again.
    public static func makeHeld(prefix: String, in base: String) throws -> String {
        guard !prefix.isEmpty, !prefix.contains("/"), !prefix.hasPrefix(".") else {
            throw SentinelError(.invalidInput, "'\(prefix)': not a directory name's prefix")
        }
        var template = Array("\(base)/.\(prefix)new-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw SentinelError(.io, "\(base): cannot make a temporary directory: \(Errno.current)", errno: .current)
        }
        let temporary = String(cString: made)
        let fd = open(temporary, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        var failure = Errno.current
        if fd >= 0, flock(fd, LOCK_EX | LOCK_NB) == 0 {
            for _ in 0..<8 {
                let path = base + "/" + prefix + randomHex()
                do throws(Errno) {
                    try DirectoryDescriptor.workingDirectory.rename(temporary, to: path, replacing: .never)
                    held.withLock { $0[path] = fd }
                    return path
                } catch {
                    failure = error
                    if error.rawValue != EEXIST { break }
                }
            }
        } else if fd >= 0 {
            failure = Errno.current
        }
        if fd >= 0 { close(fd) }
        try? FileManager.default.removeItem(atPath: temporary)
        throw SentinelError(.io, "\(base)/\(prefix)…: cannot make and lock the directory: \(failure)", errno: failure)
    }

    /// 16 hex digits from the system's generator.
    private static func randomHex() -> String {
        let digits = String(UInt64.random(in: 0...UInt64.max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Removes every directory in `base` whose name starts with `prefix` that is this user's,
    /// private, and whose lock nobody holds (`makeHeld`'s owner is gone: a lock ends with its
    /// process, killed with -9 or not). Returns how many it removed.
    @discardableResult
    public static func sweepUnheld(in base: String, prefix: String) -> Int {
        guard !prefix.isEmpty else { return 0 }
        return sweepAbandoned(in: base, olderThan: 0) { $0.hasPrefix(prefix) }
    }

    /// The locks this process holds, by directory.
    private static let held = Mutex<[String: Int32]>([:])

    /// A directory left older than this with no lock on it is abandoned (one made by a build that
    /// did not lock is given this long to finish).
    static let abandonedAfter: Double = 3600

    /// Removes `base/prefix-XXXXXX` directories of this user that nobody holds a lock on and
    /// that are older than `abandonedAfter`. Links and other users' entries are left alone.
    @discardableResult
    static func sweepAbandoned(in base: String, prefix: String) -> Int {
        sweepAbandoned(in: base) { $0.hasPrefix(prefix + "-") && $0.utf8.count == prefix.utf8.count + 7 }
    }

    /// `sweepAbandoned(in:prefix:)` over the entries whose names `made` accepts.
    private static func sweepAbandoned(in base: String, olderThan age: Double = abandonedAfter, made: (String) -> Bool) -> Int {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: base) else { return 0 }
        var removed = 0
        let now = Date().timeIntervalSince1970
        for name in names where made(name) {
            let path = base + "/" + name
            let fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_uid == geteuid(), info.st_mode & 0o077 == 0,
                now - Double(info.st_mtim.tv_sec) >= age, flock(fd, LOCK_EX | LOCK_NB) == 0
            else { continue }
            if (try? FileManager.default.removeItem(atPath: path)) != nil { removed += 1 }
        }
        return removed
    }
}
