#if canImport(Glibc)
    import Glibc
#endif
import Support
import Synchronization

/// Resource limits a cgroup enforces on the whole sandbox tree.
public struct CgroupLimits: Sendable, Equatable {
    /// Memory limit, bytes; nil: none.
    public var memoryBytes: UInt64?
    /// Most processes and threads; nil: none.
    public var pids: Int?
    /// CPU limit in CPUs, e.g. 1.5; nil: none.
    public var cpus: Double?

    /// Makes limits; each nil leaves that resource unlimited.
    public init(memoryBytes: UInt64? = nil, pids: Int? = nil, cpus: Double? = nil) {
        self.memoryBytes = memoryBytes
        self.pids = pids
        self.cpus = cpus
    }

    /// The most CPUs a limit may name (the profile loader's and the command line's bound).
    public static let maximumCPUs = 1024.0

    /// `cpus` as a CFS quota per `period` microseconds: at least 1 ms, at most `maximumCPUs`
    /// periods; a value no one should have let through (NaN, infinite) is the most restrictive.
    public func quota(period: Int) -> Int? {
        guard let cpus else { return nil }
        guard cpus.isFinite else { return 1000 }
        return Int(min(max(1000, cpus * Double(period)), Self.maximumCPUs * Double(period)))
    }
}

/// Which cgroup hierarchy the host has: v1 (per-controller) or v2 (unified).
public enum CgroupVersion: String, Sendable {
    case v1, v2
}

/// One hierarchy's view: v1 (a directory per controller) or v2 (unified), chosen at run time.
public protocol CgroupHierarchy: Sendable {
    var version: CgroupVersion { get }
    /// Creates a group with `limits` applied; throws naming the file on failure.
    func create(name: String, limits: CgroupLimits) throws -> any CgroupGroup
    /// Names of existing groups under the hierarchy that start with `prefix`.
    func groups(withPrefix prefix: String) -> [String]
    /// Whether group `name` holds no task (a missing group is empty).
    func isEmpty(name: String) -> Bool
    /// When group `name` was made (seconds since the epoch), or nil when it cannot be told.
    func creationTime(name: String) -> Int?
    /// Removes group `name` if it holds no task, and never kills: `rmdir` is the kernel's own
    /// atomic emptiness check, so a task that entered after `isEmpty` looked keeps its group.
    func removeIfEmpty(name: String)
}

/// A live group holding one sandbox.
public protocol CgroupGroup: Sendable {
    var name: String { get }
    /// The files the sandbox's init enters the group by, in order: cgroup v1's `tasks`, which the
    /// init writes "0" to itself (`initMovesItself`: a task moving itself alone takes none of the
    /// kernel's global migration lock, whose writer waits for an RCU grace period once it was
    /// idle), or v2's `cgroup.procs`, which the launcher writes the init's pid to.
    var attachFiles: [String] { get }
    /// Whether the init moves itself in (see `attachFiles`).
    var initMovesItself: Bool { get }
    /// Whether the kernel OOM-killed a task of this group.
    func oomKilled() -> Bool
    func peakMemoryBytes() -> UInt64?
    func cpuNanoseconds() -> UInt64?
    /// Kills every task and removes the group.
    func destroy()
}

/// Finds the hierarchy this host offers and names groups so stale ones can be found.
public enum Cgroups {
    /// Group names are `sentinel-<launcher pid>-<sequence>.<pid namespace>.<random>[-label]`.
    /// The pid namespace (its inode) says where the pid means something: launchers that are
    /// pid 1 of their own containers share the cgroup hierarchy but not their pids, and once
    /// shared one name (`sentinel-1-1`, red team R3). The random part keeps names apart even
    /// when a namespace's inode is reused.
    public static let prefix = "sentinel-"
    private static let sequence = Atomic<Int>(0)
    /// This process's pid namespace (the inode of `/proc/self/ns/pid`; 0 when unreadable).
    static let pidNamespace: UInt64 = {
        var info = stat()
        return stat("/proc/self/ns/pid", &info) == 0 ? UInt64(info.st_ino) : 0
    }()
    /// How long an empty group of a launcher in another pid namespace is left before a sweep
    /// removes it: its launcher's liveness cannot be asked from here, and a live launcher
    /// attaches its sandbox within milliseconds of making the group.
    static let foreignGraceSeconds = 600

    /// A fresh group name; `label` (letters, digits, `_`) is appended so a caller can find
    /// exactly its own groups.
    public static func nextName(label: String? = nil) -> String {
        let base =
            "\(prefix)\(getpid())-\(sequence.add(1, ordering: .relaxed).newValue).\(pidNamespace).\(UInt32.random(in: 0...UInt32.max))"
        guard let label, !label.isEmpty, label.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return base }
        return base + "-" + label
    }

    /// v2 when the unified root has controllers, else v1 when its controllers are mounted. On the
    /// host's own mount, groups are made under the launcher's own group (`/proc/self/cgroup`), so
    /// a CI job's limits hold for the sandboxes it starts (red team R14): v2 makes them below the
    /// launcher's cgroup as a delegated subtree, v1 below its group in each controller.
    public static func detect(root: String = "/sys/fs/cgroup") -> (any CgroupHierarchy)? {
        let own = root == "/sys/fs/cgroup" ? CgroupFiles.read("/proc/self/cgroup") : nil
        if let controllers = CgroupFiles.read(root + "/cgroup.controllers"),
            !controllers.trimmedOfWhitespace().isEmpty
        {
            let path = own.flatMap(CgroupDelegation.ownPath(fromProcCgroup:)) ?? "/"
            var info = stat()
            let nested = path != "/" && stat(root + path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
            return CgroupV2(root: nested ? root + path : root)
        }
        if CgroupFiles.exists(root + "/memory/memory.limit_in_bytes") || CgroupFiles.exists(root + "/pids/pids.max") {
            return CgroupV1(root: root, placement: own.map { CgroupV1.placement(fromProcCgroup: $0, root: root) } ?? [:])
        }
        return nil
    }

    /// Removes groups left by launchers that died (`kill -9`: nothing in the sandbox can remove
    /// them, the init being inside). Every launch calls this before creating its own group.
    /// A group goes only when it holds no task and its launcher is gone: asked with `kill(pid, 0)`
    /// when the name is of this pid namespace (or of an older Sentinel, which named none); for a
    /// launcher in another namespace, when the group has stayed empty past a grace period.
    /// Removal is `rmdir` alone, the kernel's atomic emptiness check: a populated group (a live
    /// sandbox) is never touched.
    public static func removeStale(in hierarchy: any CgroupHierarchy, now: Int = Int(time(nil))) {
        for name in hierarchy.groups(withPrefix: prefix) {
            let fields = name.dropFirst(prefix.count).split(separator: "-")
            guard let pidText = fields.first, let owner = pid_t(pidText), fields.count >= 2 else { continue }
            let parts = fields[1].split(separator: ".")
            let namespace = parts.count >= 2 ? UInt64(parts[1]) : nil
            if namespace == nil || namespace == pidNamespace {
                if owner == getpid() { continue }
                if kill(owner, 0) == 0 || errno == EPERM { continue }
            } else if let made = hierarchy.creationTime(name: name), now - made < foreignGraceSeconds {
                continue
            }
            guard hierarchy.isEmpty(name: name) else { continue }
            hierarchy.removeIfEmpty(name: name)
        }
    }
}

import FoundationEssentials
