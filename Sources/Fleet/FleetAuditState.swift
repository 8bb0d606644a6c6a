import Audit
import Digest
import Foundation
import Store
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// What one machine keeps of the fleet's audit chains outside the database: the key that links them
/// (`FleetAuditKeyFile`) and, for each database and each chain this machine appended to, a head file
/// naming the highest entry it appended (`SEQ:LINK`, written through `PreparedOutputFile`, mode
/// 600), all in its private state directory. Whoever can write the database but holds neither can delete the chain's tail and
/// point the stored head at what is left; the head files still name what was there.
///
/// Each writer appends to its own chain (a worker's is its name), usually from one machine; a chain
/// written from several (one identity's approvals given on two) has a head file on each, covering
/// what that machine wrote up to its last append: `fleet audit verify` checks every chain holds
/// every head file it is given (its own machine's by default, others' with `--head`). What no given
/// head file covers — the entries after the highest of them, the entries of a machine whose head
/// file is lost or not given — is protected by the key alone: it can be cut off, though not edited
/// or forged.
///
/// A worker records an entry per job: its head files are written at most every `headFileLag`
/// seconds and when it stops or goes idle (`flush`), not at each entry (an fsync'd file per job
/// was a quarter of a worker's time per job). What it appended since is held here meanwhile, and
/// checked before its next append; a worker killed (-9) before its flush leaves its head file at
/// most `headFileLag` seconds behind.
public final class FleetAuditState: Sendable {
    /// The key the chain is linked with.
    public let key: AuditKey
    /// The state directory holding the head files.
    public let path: String
    /// The key's file, for messages.
    public let keyPath: String
    private let directory: DirectoryDescriptor
    /// How long a head file may lag what this process appended (0: written at every append).
    public let headFileLag: Double
    private let memory = Mutex(Heads())

    /// What this process appended, by head file name, and what it has yet to write.
    private struct Heads {
        /// The highest head this process committed to each chain.
        var committed: [String: AuditHead] = [:]
        /// Heads committed and not yet in their head file.
        var pending: [String: AuditHead] = [:]
        /// When each head file was last written (monotonic seconds).
        var written: [String: Double] = [:]
    }

    /// The key file's name in the state directory.
    public static let keyFileName = FleetAuditKeyFile.name

    /// The audit state in the state directory `stateDirectory` (made, mode 700, when missing; refused
    /// when not private): the key from `keyFile` when given, else from the state directory's key
    /// file, made with random bytes when missing and `createKey`.
    /// `headFileLag` is how long head files may lag this process's appends (0 for a command that
    /// appends and exits; a worker's lag is flushed when it stops).
    public static func open(
        stateDirectory: String, keyFile: String? = nil, createKey: Bool = true, headFileLag: Double = 0
    ) throws -> FleetAuditState {
        let directory = try PrivateDirectory.open(stateDirectory)
        let keyPath = keyFile ?? stateDirectory + "/" + FleetAuditKeyFile.name
        let key =
            try keyFile.map { try FleetAuditKeyFile.load(path: $0) }
            ?? FleetAuditKeyFile.load(in: directory, path: keyPath, create: createKey)
        return FleetAuditState(key: key, path: stateDirectory, keyPath: keyPath, directory: directory, headFileLag: headFileLag)
    }

    private init(key: AuditKey, path: String, keyPath: String, directory: DirectoryDescriptor, headFileLag: Double) {
        self.key = key
        self.path = path
        self.keyPath = keyPath
        self.directory = directory
        self.headFileLag = max(0, headFileLag)
    }

    /// The head file of chain `chain` of the database at `location` (a `JobQueue.location`).
    public func headPath(for location: String, chain: String = JobQueue.legacyAuditChain) -> String {
        path + "/" + Self.headName(for: location, chain: chain)
    }

    /// `fleet-audit-LOCATION.head` for the chain every writer shared before per-writer chains (its
    /// head files keep their names), `fleet-audit-LOCATION-CHAIN.head` for the others (16 hex
    /// digits of each name's SHA-256).
    static func headName(for location: String, chain: String = JobQueue.legacyAuditChain) -> String {
        chain == JobQueue.legacyAuditChain
            ? "fleet-audit-" + SHA256.hex(location).prefix(16) + ".head"
            : "fleet-audit-" + SHA256.hex(location).prefix(16) + "-" + SHA256.hex(chain).prefix(16) + ".head"
    }

    /// The names of this machine's head files for the database at `location`, each with the 16 hex
    /// digits naming its chain (nil for the legacy chain's file): a chain deleted whole from the
    /// database still has its head file here.
    public func headFiles(for location: String) throws -> [(name: String, chainDigest: String?)] {
        let prefix = "fleet-audit-" + SHA256.hex(location).prefix(16)
        let entries: [DirectoryDescriptor.Entry]
        do throws(Errno) { entries = try directory.reopened().entries(limit: 100_000) } catch {
            throw SentinelError(.io, "\(path): cannot list: \(error)", errno: error)
        }
        return entries.map(\.text).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".head") }.sorted().compactMap { name in
            let middle = name.dropFirst(prefix.count).dropLast(".head".count)
            if middle.isEmpty { return (name, nil) }
            guard middle.first == "-", middle.count == 17 else { return nil }
            return (name, String(middle.dropFirst()))
        }
    }

    /// The head this machine holds for chain `chain` of the database at `location`; nil when it has none.
    public func head(for location: String, chain: String = JobQueue.legacyAuditChain) throws -> AuditHead? {
        try head(named: Self.headName(for: location, chain: chain))
    }

    /// The head in this machine's head file `name`; nil when there is none.
    public func head(named name: String) throws -> AuditHead? {
        let fd: Int32
        do throws(Errno) {
            fd = try directory.openFile(name, flags: O_RDONLY | O_NONBLOCK)
        } catch {
            if error.rawValue == ENOENT { return nil }
            throw SentinelError(.io, "\(path)/\(name): cannot open: \(error)", errno: error)
        }
        defer { close(fd) }
        return try Self.parse(BoundedFile.read(fd: fd, name: path + "/" + name, limit: 4096), path: path + "/" + name)
    }

    /// The head in a head file the operator names (another machine's).
    public static func readHead(path: String) throws -> AuditHead {
        try parse(BoundedFile.read(path, limit: 4096, followLinks: false), path: path)
    }

    private static func parse(_ data: Data, path: String) throws -> AuditHead {
        guard let head = AuditHead(parsing: String(decoding: data, as: UTF8.self)) else {
            throw SentinelError(.invalidInput, "\(path): not an audit head (SEQ:LINK)")
        }
        return head
    }

    /// The highest head this process committed to chain `chain` of the database at `location`
    /// (whether or not its head file has it yet); nil when it appended none.
    func committedHead(for location: String, chain: String) -> AuditHead? {
        let name = Self.headName(for: location, chain: chain)
        return memory.withLock { $0.committed[name] }
    }

    /// The highest head this machine knows for the chain: this process's (`committedHead`) or
    /// the head file's, which another process on this machine may have advanced.
    func knownHead(for location: String, chain: String) throws -> AuditHead? {
        let file = try head(for: location, chain: chain)
        guard let mine = committedHead(for: location, chain: chain) else { return file }
        return mine.sequence >= (file?.sequence ?? 0) ? mine : file
    }

    /// Records `head`, committed, as this machine's for chain `chain` of the database at
    /// `location`: in its head file now, or within `headFileLag` seconds (at the next append
    /// after that, or `flush`). A head file never goes back: threads and processes appending at
    /// once finish in any order.
    func advance(to head: AuditHead, for location: String, chain: String = JobQueue.legacyAuditChain) throws {
        let name = Self.headName(for: location, chain: chain)
        let now = MonotonicClock.seconds()
        let due = memory.withLock { heads -> Bool in
            if let known = heads.committed[name], known.sequence >= head.sequence { return false }
            heads.committed[name] = head
            if headFileLag > 0, let last = heads.written[name], now - last < headFileLag {
                heads.pending[name] = head
                return false
            }
            heads.pending[name] = nil
            heads.written[name] = now
            return true
        }
        if due { try writeOrKeep(head, named: name) }
    }

    /// Writes every head this process committed and has not written yet.
    public func flush() throws {
        let now = MonotonicClock.seconds()
        let pending = memory.withLock { heads in
            defer { heads.pending.removeAll() }
            for name in heads.pending.keys { heads.written[name] = now }
            return heads.pending
        }
        for (name, head) in pending.sorted(by: { $0.key < $1.key }) { try writeOrKeep(head, named: name) }
    }

    /// `write`, keeping `head` pending when it fails: the next flush tries again.
    private func writeOrKeep(_ head: AuditHead, named name: String) throws {
        do {
            try write(head, named: name)
        } catch {
            memory.withLock { heads in
                if (heads.pending[name]?.sequence ?? 0) < head.sequence { heads.pending[name] = head }
            }
            throw error
        }
    }

    /// Writes `head` to head file `name` unless it holds a higher one (another process's).
    private func write(_ head: AuditHead, named name: String) throws {
        // A description of its own: flock then excludes this process's other threads too.
        let lock: DirectoryDescriptor
        do throws(Errno) { lock = try directory.reopened() } catch {
            throw SentinelError(.io, "\(path): cannot open: \(error)", errno: error)
        }
        guard case .success = retryingOnInterrupt({ flock(lock.rawValue, LOCK_EX) }) else {
            throw SentinelError(.io, "\(path): cannot lock: \(Errno.current)", errno: .current)
        }
        defer { withExtendedLifetime(lock) {} }
        if let held = try self.head(named: name), held.sequence >= head.sequence { return }
        try PreparedOutputFile(path: path + "/" + name).write(head.description + "\n", mode: 0o600)
    }
}
