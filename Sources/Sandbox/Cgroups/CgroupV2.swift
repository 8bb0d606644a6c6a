#if canImport(Glibc)
    import Glibc
#endif
import Support

/// cgroup v2: one unified tree; limits in `memory.max`, `pids.max`, `cpu.max`.
public struct CgroupV2: CgroupHierarchy {
    /// The directory groups are created in.
    public let root: String
    /// Always `.v2`.
    public var version: CgroupVersion { .v2 }

    /// A view of the v2 hierarchy whose groups live under `root`.
    public init(root: String) {
        self.root = root
    }

    /// Creates group `name` and writes `memory.max`, `pids.max`, `cpu.max`; throws naming the file on failure.
    public func create(name: String, limits: CgroupLimits) throws -> any CgroupGroup {
        do {
            try enableControllers()
        } catch {
            throw SentinelError(.sandboxSetup, "cgroup: \(error.reason)")
        }
        let path = "\(root)/\(name)"
        // A name that exists is never adopted: whoever made it (a launcher in another pid
        // namespace, or someone who planted it) may hold or change its limits.
        guard mkdir(path, 0o755) == 0 else {
            throw SentinelError(.sandboxSetup, "cgroup: mkdir \(path): \(Errno.current)", errno: .current)
        }
        do {
            if let bytes = limits.memoryBytes {
                // Socket buffers are charged to memory.max on v2: no separate TCP limit exists.
                try CgroupFiles.write(String(bytes), to: path + "/memory.max")
                _ = try CgroupFiles.writeIfPresent("0", to: path + "/memory.swap.max")
            }
            if let count = limits.pids {
                try CgroupFiles.write(String(count), to: path + "/pids.max")
            }
            let period = 100_000
            if let quota = limits.quota(period: period) {
                try CgroupFiles.write("\(quota) \(period)", to: path + "/cpu.max")
            }
        } catch {
            CgroupFiles.removeDirectory(path)
            throw error
        }
        return Group(name: name, path: path)
    }

    /// Child groups get only the controllers the parent delegates in `cgroup.subtree_control`.
    /// A root holding processes refuses that (EBUSY): the root of a container's cgroup
    /// namespace, where the launcher itself lives. The launcher then moves itself into a leaf
    /// first, as a delegated launcher does; throws when that is not enough.
    func enableControllers() throws(CgroupDelegation.Unavailable) {
        let available = Set((CgroupFiles.read(root + "/cgroup.controllers") ?? "").split(whereSeparator: \.isWhitespace))
        try CgroupDelegation.enable(["memory", "pids", "cpu"].filter { available.contains(Substring($0)) }, in: root)
    }

    /// Names of the groups directly under `root` that start with `prefix`, sorted.
    public func groups(withPrefix prefix: String) -> [String] {
        CgroupFiles.entries(of: root).filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// Whether group `name`'s `cgroup.procs` lists no process (a missing group is empty).
    public func isEmpty(name: String) -> Bool {
        CgroupFiles.pids(in: "\(root)/\(name)/cgroup.procs").isEmpty
    }

    /// The change time of group `name`'s directory (kernfs sets it when the directory is made).
    public func creationTime(name: String) -> Int? {
        CgroupFiles.changeTime("\(root)/\(name)")
    }

    /// Removes group `name` if it holds no process; never kills.
    public func removeIfEmpty(name: String) {
        rmdir("\(root)/\(name)")
    }

    struct Group: CgroupGroup {
        let name: String
        let path: String

        var attachFiles: [String] { [path + "/cgroup.procs"] }
        var initMovesItself: Bool { false }

        func oomKilled() -> Bool {
            (CgroupFiles.keyed(path + "/memory.events", "oom_kill") ?? 0) > 0
        }

        func peakMemoryBytes() -> UInt64? {
            CgroupFiles.readNumber(path + "/memory.peak")
        }

        func cpuNanoseconds() -> UInt64? {
            CgroupFiles.keyed(path + "/cpu.stat", "usage_usec").map { $0 * 1000 }
        }

        func destroy() {
            // cgroup.kill (5.14+) kills the whole tree atomically; older kernels get a sweep.
            let left = CgroupFiles.pids(in: path + "/cgroup.procs")
            if !left.isEmpty || !CgroupFiles.exists(path + "/cgroup.procs") {
                if CgroupFiles.exists(path + "/cgroup.kill") {
                    try? CgroupFiles.write("1", to: path + "/cgroup.kill")
                }
                for pid in left { kill(pid, SIGKILL) }
            }
            CgroupFiles.removeDirectory(path)
        }
    }
}

import FoundationEssentials
