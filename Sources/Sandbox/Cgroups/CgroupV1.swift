#if canImport(Glibc)
    import Glibc
#endif
import Support

/// cgroup v1: one directory per controller (`memory`, `pids`, `cpu`, `cpuacct`).
public struct CgroupV1: CgroupHierarchy {
    /// The directory holding one mount per controller (usually `/sys/fs/cgroup`).
    public let root: String
    /// Always `.v1`.
    public var version: CgroupVersion { .v1 }
    static let controllers = ["memory", "pids", "cpu", "cpuacct"]

    /// A group joins only the controllers it needs (each costs a directory and an attach):
    /// memory always (OOM and peak), pids and cpu when limited, and cpuacct always, for the
    /// tree's CPU time. The init's rusage is no substitute: when pid 1 ends, the kernel reaps
    /// what is left of the tree without accounting it (a worker outliving the payload, the
    /// whole tree at a timeout or stop), so it reported 2 ms for 2 CPU-seconds. Where cpu and
    /// cpuacct are one hierarchy (`cpu,cpuacct`, linked from both names) it is joined once.
    func needed(for limits: CgroupLimits) -> [String] {
        var names = ["memory"]
        if limits.pids != nil { names.append("pids") }
        if limits.cpus != nil { names.append("cpu") }
        names.append("cpuacct")
        // A list, not a Set: at most four entries, and a Set of pairs costs its first launch
        // more (the runtime builds the type's metadata and conformances) than the rest of this.
        var hierarchies: [(device: UInt64, inode: UInt64)] = []
        return names.filter { controller in
            // Controllers mounted together (`cpu,cpuacct`, reached through two links) share one
            // `cgroup.procs`: one stat tells both that the hierarchy is there and which it is.
            var info = stat()
            guard stat("\(root)/\(controller)/cgroup.procs", &info) == 0 else { return false }
            let hierarchy = (device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            guard !hierarchies.contains(where: { $0 == hierarchy }) else { return false }
            hierarchies.append(hierarchy)
            return true
        }
    }

    /// Per controller, the launcher's own group below the controller's mount (`/ci/job-7`): sandbox
    /// groups are made beneath it, so that limits set on the launcher's group (a CI job's) hold
    /// for its sandboxes too (red team R14). Empty: the mount's root.
    public let placement: [String: String]

    /// A view of the v1 hierarchies mounted under `root`, with groups made under `placement`.
    public init(root: String, placement: [String: String] = [:]) {
        self.root = root
        self.placement = placement
    }

    /// The directory sandbox groups of `controller` are made in.
    func base(_ controller: String) -> String {
        "\(root)/\(controller)\(placement[controller] ?? "")"
    }

    /// The launcher's own v1 groups from `/proc/self/cgroup` text (`ID:controller,...:PATH`), each
    /// kept only where that directory exists under `root` (a container shown its own subtree as the
    /// mount's root lists a path that does not exist there: its groups go at the mount's root).
    static func placement(fromProcCgroup text: String, root: String) -> [String: String] {
        var result: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3, fields[2].hasPrefix("/"), fields[2] != "/" else { continue }
            let path = String(fields[2])
            for controller in fields[1].split(separator: ",").map(String.init) where controllers.contains(controller) {
                var info = stat()
                if stat("\(root)/\(controller)\(path)", &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
                    result[controller] = path
                }
            }
        }
        return result
    }

    /// The socket-buffer limit that goes with a memory limit of `memory` bytes.
    static func tcpLimit(memory: UInt64) -> UInt64 {
        max(memory / 2, 1 << 20)
    }

    /// Creates group `name` in the controllers `limits` needs and writes the limits; throws naming the file on failure.
    public func create(name: String, limits: CgroupLimits) throws -> any CgroupGroup {
        var created: [String] = []
        do {
            for controller in needed(for: limits) {
                let path = "\(base(controller))/\(name)"
                // A name that exists is never adopted: whoever made it (a launcher in another pid
                // namespace, or someone who planted it) may hold or change its limits.
                guard mkdir(path, 0o755) == 0 else {
                    throw SentinelError(.sandboxSetup, "cgroup: mkdir \(path): \(Errno.current)", errno: .current)
                }
                created.append(path)
            }
            let memory = "\(base("memory"))/\(name)"
            if let bytes = limits.memoryBytes, created.contains(memory) {
                try CgroupFiles.write(String(bytes), to: memory + "/memory.limit_in_bytes")
                // Without swap accounting a limited group could page out instead of dying.
                _ = try CgroupFiles.writeIfPresent(String(bytes), to: memory + "/memory.memsw.limit_in_bytes")
                _ = try? CgroupFiles.writeIfPresent("0", to: memory + "/memory.swappiness")
                // v1 does not count socket buffers in the memory limit: without this a payload
                // queues gigabytes in loopback TCP. Writing the file is what turns TCP
                // accounting on for the group (deprecated since 6.x, still enforced on 6.18;
                // memory.kmem.limit_in_bytes, by contrast, is ignored by kernels since 6.1).
                // The TCP counter is separate from the memory one, so half the limit keeps
                // the group's total under 1.5x the limit; the kernel overshoots it only by a
                // forced packet per socket, and sockets are bounded by the open-files limit.
                _ = try CgroupFiles.writeIfPresent(
                    String(Self.tcpLimit(memory: bytes)), to: memory + "/memory.kmem.tcp.limit_in_bytes")
            }
            let pids = "\(base("pids"))/\(name)"
            if let count = limits.pids, created.contains(pids) {
                try CgroupFiles.write(String(count), to: pids + "/pids.max")
            }
            let cpu = "\(base("cpu"))/\(name)"
            let period = 100_000
            if let quota = limits.quota(period: period), created.contains(cpu) {
                try CgroupFiles.write(String(period), to: cpu + "/cpu.cfs_period_us")
                try CgroupFiles.write(String(quota), to: cpu + "/cpu.cfs_quota_us")
            }
        } catch {
            for path in created { CgroupFiles.removeDirectory(path) }
            throw error
        }
        return Group(name: name, directories: created, memoryBase: base("memory"), cpuacctBase: base("cpuacct"))
    }

    /// Names of the groups in any controller that start with `prefix`, sorted.
    public func groups(withPrefix prefix: String) -> [String] {
        // A list: a handful of names at most, and a Set's first use costs a launch more.
        var names: [String] = []
        for controller in Self.controllers {
            for name in CgroupFiles.entries(of: base(controller)) where name.hasPrefix(prefix) && !names.contains(name) {
                names.append(name)
            }
        }
        return names.sorted()
    }

    /// Whether group `name` holds no task (a missing group is empty).
    public func isEmpty(name: String) -> Bool {
        Self.controllers.allSatisfy { CgroupFiles.pids(in: "\(base($0))/\(name)/cgroup.procs").isEmpty }
    }

    /// The newest change time of group `name`'s controller directories (kernfs sets it when
    /// the directory is made), or nil when none is there.
    public func creationTime(name: String) -> Int? {
        Self.controllers.compactMap { CgroupFiles.changeTime("\(base($0))/\(name)") }.max()
    }

    /// Removes group `name` from every controller where it holds no task; never kills.
    public func removeIfEmpty(name: String) {
        for controller in Self.controllers { rmdir("\(base(controller))/\(name)") }
    }

    struct Group: CgroupGroup {
        let name: String
        let directories: [String]
        /// The memory and cpuacct directories the group's counters are read from.
        let memoryBase: String
        let cpuacctBase: String

        var attachFiles: [String] { directories.map { $0 + "/tasks" } }
        var initMovesItself: Bool { true }

        func oomKilled() -> Bool {
            let path = "\(memoryBase)/\(name)/memory.oom_control"
            if let kills = CgroupFiles.keyed(path, "oom_kill") { return kills > 0 }
            // Kernels before 4.13 have no oom_kill counter; a hit on the limit is the best sign.
            return (CgroupFiles.readNumber("\(memoryBase)/\(name)/memory.failcnt") ?? 0) > 0
        }

        func peakMemoryBytes() -> UInt64? {
            CgroupFiles.readNumber("\(memoryBase)/\(name)/memory.max_usage_in_bytes")
        }

        func cpuNanoseconds() -> UInt64? {
            CgroupFiles.readNumber("\(cpuacctBase)/\(name)/cpuacct.usage")
        }

        func destroy() {
            // Normally empty already: the pid namespace died with its init, and the first rmdir
            // succeeds. Sweep only a group still busy (a launcher killed mid-run leaves live
            // tasks behind).
            for directory in directories where rmdir(directory) != 0 && errno == EBUSY {
                for _ in 0..<3 {
                    let left = CgroupFiles.pids(in: directory + "/cgroup.procs")
                    if left.isEmpty { break }
                    for pid in left { kill(pid, SIGKILL) }
                }
                CgroupFiles.removeDirectory(directory)
            }
        }
    }
}

import FoundationEssentials
