#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support
import Synchronization

/// One host uid/gid of the `HostIDRange`, held by one sandbox for its launch's lifetime.
///
/// The hold is an open-file-description lock (`F_OFD_SETLK`) on byte `id` of one root-only
/// file, `/run/sentinel/ids.lock`: the kernel drops it when the descriptor closes, however the
/// launcher ends (`kill -9` included), so no id leaks and nothing is left to clean up. Unlike a
/// classic record lock it also keeps apart two threads of one process, each with its own
/// descriptor; locking the id itself (not its index) keeps launchers given different ranges
/// apart. Probing starts at a random id, so launchers starting together rarely meet, and skips
/// ids the user or group database knows.
///
/// The database is asked on a thread of its own from the moment the id is held, and its answer
/// awaited only before the payload may start (`confirmUnassigned()`, called by the `Launcher`):
/// two NSS lookups load their modules and cost ~0.7 ms, which then overlap the launch's plan, its
/// clone, its cgroup and the init's mounts instead of adding to every launch. An id found assigned
/// abandons that launch, which `with` starts again on another id.
public final class HostIDLease: Sendable {
    /// The payload's host uid and gid.
    public let id: UInt32
    private let fd: Int32
    /// The database's answer `confirmUnassigned()` awaits; nil when `acquire` asked it already.
    private let answer: DatabaseAnswer?

    /// The lock file's name in the root launcher's run directory (`NewRootDirectory.rootBase`).
    public static let lockFileName = "ids.lock"

    /// Launches abandoned for an assigned id before `with` falls back to asking the database
    /// while probing, which ends with an error naming the range when every id is taken.
    static let abandonedLaunchLimit = 4

    /// The lease's id turned out to be known to the user or group database: the launch that
    /// holds it must not release its payload.
    struct Assigned: Error {
        let id: UInt32
    }

    private init(id: UInt32, fd: Int32, unconfirmed isAssigned: (@Sendable (UInt32) -> Bool)?) {
        self.id = id
        self.fd = fd
        self.answer = isAssigned.map { DatabaseAnswer(id: id, isAssigned: $0) }
    }

    deinit { close(fd) }

    /// Throws `Assigned` when the user or group database knows the id, waiting for its answer.
    /// Called before the payload is released; a lease acquired with the database already asked
    /// returns at once.
    func confirmUnassigned() throws(Assigned) {
        if let answer, answer.isAssigned { throw Assigned(id: id) }
    }

    /// Runs `body` with a host id held for it: as root, one of the configured range; otherwise
    /// nil (an unprivileged launcher can map only its own ids). `body` launches with the lease
    /// in `LaunchOptions.hostIDLease`; a launch abandoned because its id is assigned runs again.
    public static func with<T>(_ body: (HostIDLease?) throws -> T) throws -> T {
        guard getuid() == 0 else { return try body(nil) }
        let variable = HostIDRange.environmentVariable
        let range = try HostIDRange.configured(ProcessEnvironment.value(variable).map { [variable: $0] } ?? [:])
        return try with(range: range, body)
    }

    /// `with` for a given range, directory and database (tests).
    static func with<T>(
        range: HostIDRange, directory: String = NewRootDirectory.rootBase,
        first: @autoclosure () -> UInt32 = .random(in: 0...UInt32.max),
        isAssigned: @escaping @Sendable (UInt32) -> Bool = UserDatabase.knows,
        _ body: (HostIDLease) throws -> T
    ) throws -> T {
        // Held until the end, so that no later probe picks them again.
        var abandoned: [HostIDLease] = []
        defer { withExtendedLifetime(abandoned) {} }
        while true {
            let deferred = abandoned.count < abandonedLaunchLimit
            let lease = try acquire(
                range: range, directory: directory, first: first(), isAssigned: isAssigned, confirmingLater: deferred)
            do {
                return try withExtendedLifetime(lease) { try body(lease) }
            } catch let error as Assigned where error.id == lease.id && deferred {
                abandoned.append(lease)
            }
        }
    }

    /// Holds a free id of `range`: the first, from `first` on (wrapping), that no other lease
    /// holds and `isAssigned` does not claim. Throws `.sandboxSetup` when there is none.
    /// `confirmingLater`: the first id no other lease holds, with `isAssigned` left for
    /// `confirmUnassigned()`.
    static func acquire(
        range: HostIDRange, directory: String = NewRootDirectory.rootBase,
        first: UInt32 = .random(in: 0...UInt32.max),
        isAssigned: @escaping @Sendable (UInt32) -> Bool = UserDatabase.knows,
        confirmingLater: Bool = false
    ) throws -> HostIDLease {
        let fd = try openLockFile(in: directory)
        var held = 0
        var assigned = 0
        for step in 0..<UInt64(range.count) {
            let id = UInt32(UInt64(range.start) + (UInt64(first) + step) % UInt64(range.count))
            guard csys_ofd_trylock(fd, off_t(id)) == 0 else {
                guard errno == EAGAIN || errno == EACCES else {
                    let error = Errno.current
                    close(fd)
                    throw SentinelError.sandboxSetup(stage: "host id", errno: error, detail: "lock \(id) in \(directory)/\(lockFileName)")
                }
                held += 1
                continue
            }
            if !confirmingLater, isAssigned(id) {
                _ = csys_ofd_unlock(fd, off_t(id))
                assigned += 1
                continue
            }
            return HostIDLease(id: id, fd: fd, unconfirmed: confirmingLater ? isAssigned : nil)
        }
        close(fd)
        let last = UInt64(range.start) + UInt64(range.count) - 1
        throw SentinelError.sandboxSetup(
            stage: "host id", errno: nil,
            detail:
                "no free host id in \(range.start)..\(last): \(held) held by running sandboxes, \(assigned) known to the user or group database; widen \(HostIDRange.environmentVariable)=START:COUNT"
        )
    }

    /// Opens (creating it 0600) the lock file in `directory`, a root-only directory made if
    /// missing; follows no link and accepts only a regular file of ours no one else may open.
    private static func openLockFile(in directory: String) throws -> Int32 {
        try NewRootDirectory.ensurePrivateDirectory(directory)
        let parent: DirectoryDescriptor
        do throws(Errno) {
            parent = try DirectoryDescriptor.workingDirectory.openDirectory(directory)
        } catch {
            throw SentinelError.sandboxSetup(stage: "open", errno: error, detail: directory)
        }
        try checkPrivate(parent.rawValue, type: S_IFDIR, path: directory)
        let path = directory + "/" + lockFileName
        let fd: Int32
        do throws(Errno) {
            fd = try parent.openFile(lockFileName, flags: O_RDWR | O_CREAT, mode: 0o600)
        } catch {
            throw SentinelError.sandboxSetup(stage: "open", errno: error, detail: path)
        }
        do {
            try checkPrivate(fd, type: S_IFREG, path: path)
        } catch {
            close(fd)
            throw error
        }
        return fd
    }

    /// Refuses `fd` unless it is of `type`, owned by this launcher, with no permission for others
    /// and (a file) a single name.
    private static func checkPrivate(_ fd: Int32, type: mode_t, path: String) throws {
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw SentinelError.sandboxSetup(stage: "fstat", errno: .current, detail: path) }
        let single = type == S_IFDIR || info.st_nlink == 1
        guard info.st_mode & S_IFMT == type, info.st_uid == geteuid(), info.st_mode & 0o077 == 0, single else {
            throw SentinelError.sandboxSetup(
                stage: "host id", errno: nil,
                detail:
                    "\(path) must be a \(type == S_IFDIR ? "directory" : "file") owned by uid \(geteuid()) that no one else may open (found uid \(info.st_uid), mode \(String(info.st_mode & 0o7777, radix: 8)), \(info.st_nlink) links)"
            )
        }
    }
}

/// The user and group database's answer for one id, asked on a thread of its own when the answer is
/// made; reading it waits for the thread. Without a thread (`pthread_create` failed) it is asked at
/// once, on the caller's.
final class DatabaseAnswer: Sendable {
    /// Written by the asking thread before it ends, read after it is joined.
    private final class Slot: @unchecked Sendable {
        var isAssigned = false
    }

    private enum State {
        case asking(pthread_t, Slot)
        case answered(Bool)
    }

    private let state: Mutex<State>

    init(id: UInt32, isAssigned: @escaping @Sendable (UInt32) -> Bool) {
        let slot = Slot()
        if let thread = PosixThread.spawn(joinable: true, { slot.isAssigned = isAssigned(id) }) {
            state = Mutex(.asking(thread, slot))
        } else {
            state = Mutex(.answered(isAssigned(id)))
        }
    }

    /// Whether the database knows the id.
    var isAssigned: Bool {
        state.withLock { state in
            switch state {
            case .asking(let thread, let slot):
                pthread_join(thread, nil)
                state = .answered(slot.isAssigned)
                return slot.isAssigned
            case .answered(let isAssigned):
                return isAssigned
            }
        }
    }

    // A launch that failed before it asked still joins the thread.
    deinit { _ = isAssigned }
}

/// The user and group database (NSS): ids it names are someone's, never a sandbox's.
enum UserDatabase {
    /// Whether `id` is a known uid or gid.
    static func knows(_ id: UInt32) -> Bool {
        let isUser = lookup { buffer, size in
            var user = passwd()
            var found: UnsafeMutablePointer<passwd>?
            return (getpwuid_r(id, &user, buffer, size, &found), found != nil)
        }
        return isUser
            || lookup { buffer, size in
                var entry = group()
                var found: UnsafeMutablePointer<group>?
                return (getgrgid_r(id, &entry, buffer, size, &found), found != nil)
            }
    }

    /// Runs one reentrant NSS lookup, growing its buffer while it answers ERANGE (up to 1 MiB).
    private static func lookup(_ call: (UnsafeMutablePointer<CChar>, Int) -> (status: Int32, found: Bool)) -> Bool {
        var buffer = [CChar](repeating: 0, count: 4096)
        while true {
            let (status, found) = buffer.withUnsafeMutableBufferPointer { call($0.baseAddress!, $0.count) }
            guard status == ERANGE, buffer.count < 1 << 20 else { return found }
            buffer = [CChar](repeating: 0, count: buffer.count * 4)
        }
    }
}
