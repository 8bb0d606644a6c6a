import FoundationEssentials
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A cgroup v2 subtree delegated to an unprivileged launcher (systemd `Delegate=yes`, or a
/// directory an administrator handed over): the launcher's own cgroup, when it may write its
/// `cgroup.procs` and `cgroup.subtree_control` and it offers the controllers the limits need.
/// Sandbox groups are then created under it, exactly as a root launcher does under the root.
public enum CgroupDelegation {
    /// The controllers `limits` needs (memory always: OOM detection and peak memory).
    public static func controllers(for limits: CgroupLimits) -> [String] {
        var names = ["memory"]
        if limits.pids != nil { names.append("pids") }
        if limits.cpus != nil { names.append("cpu") }
        return names
    }

    /// The v2 path of the process from `/proc/PID/cgroup` text (the `0::PATH` line), or nil on
    /// a host without the unified hierarchy.
    public static func ownPath(fromProcCgroup text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            let path = String(line.dropFirst(3))
            return path.hasPrefix("/") && !path.hasSuffix(" (deleted)") ? path : nil
        }
        return nil
    }

    /// Where the cgroup2 filesystem is mounted, from `/proc/self/mountinfo` text.
    public static func mountPoint(fromMountInfo text: String) -> String? {
        for line in text.split(separator: "\n") {
            // "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [OPTIONAL...] - FSTYPE SOURCE SUPEROPTIONS"
            let halves = line.components(separatedBy: " - ")
            guard halves.count >= 2, halves[1].split(separator: " ").first == "cgroup2" else { continue }
            let fields = halves[0].split(separator: " ")
            if fields.count >= 5, fields[3] == "/" { return String(fields[4]).replacing("\\040", with: " ") }
        }
        return nil
    }

    /// Why the delegated subtree cannot be used.
    public struct Unavailable: Error, Sendable, Equatable {
        /// Why, e.g. a controller that could not be enabled.
        public var reason: String
    }

    /// The hierarchy rooted at the caller's own cgroup `ownPath` under the v2 mount
    /// `mountPoint`, after enabling `needed` for its children. Throws `Unavailable` naming
    /// the first missing piece.
    public static func hierarchy(mountPoint: String, ownPath: String, needed: [String]) throws -> CgroupV2 {
        let base = ownPath == "/" ? mountPoint : mountPoint + ownPath
        guard let available = CgroupFiles.read(base + "/cgroup.controllers") else {
            throw Unavailable(reason: "no cgroup v2 directory at \(base)")
        }
        let offered = Set(available.split(whereSeparator: \.isWhitespace).map(String.init))
        let missing = needed.filter { !offered.contains($0) }
        guard missing.isEmpty else {
            throw Unavailable(
                reason: "\(base) does not offer the \(missing.joined(separator: ", ")) controller\(missing.count > 1 ? "s" : "")")
        }
        for file in ["cgroup.procs", "cgroup.subtree_control"] where access(base + "/" + file, W_OK) != 0 {
            throw Unavailable(reason: "\(base)/\(file) is not writable")
        }
        // Everything offered is delegated at once: CgroupV2 enables any controller left off.
        try enable(["memory", "pids", "cpu"].filter(offered.contains), in: base)
        return CgroupV2(root: base)
    }

    /// The caller's delegated hierarchy on this host, or the reason there is none.
    public static func detect(needed: [String], cgroupRoot: String) -> Result<CgroupV2, Unavailable> {
        guard let own = CgroupFiles.read("/proc/self/cgroup").flatMap(ownPath(fromProcCgroup:)) else {
            return .failure(Unavailable(reason: "no cgroup v2 hierarchy"))
        }
        // A caller-chosen root (tests, benchmarks) is taken as the v2 mount itself.
        let mount =
            cgroupRoot == "/sys/fs/cgroup"
            ? CgroupFiles.read("/proc/self/mountinfo").flatMap(mountPoint(fromMountInfo:)) : cgroupRoot
        guard let mount else { return .failure(Unavailable(reason: "no cgroup v2 mount")) }
        return Result { try hierarchy(mountPoint: mount, ownPath: own, needed: needed) }
            .mapError { $0 as? Unavailable ?? Unavailable(reason: "\($0)") }
    }

    /// Leaf the launcher moves itself into so that its own cgroup may delegate controllers.
    static let selfLeafPrefix = "sentinel.launcher-"
    private static let moveLock = Mutex<Void>(())

    /// Enables `needed` in `base/cgroup.subtree_control`. The kernel refuses that (EBUSY) while
    /// `base` holds processes, the launcher included ("no internal processes"), so the launcher
    /// first moves itself into a leaf below it, as nsjail does.
    static func enable(_ needed: [String], in base: String) throws(Unavailable) {
        let enabled = Set(
            (CgroupFiles.read(base + "/cgroup.subtree_control") ?? "")
                .split(whereSeparator: \.isWhitespace).map { String($0.drop { $0 == "+" }) })
        let wanted = needed.filter { !enabled.contains($0) }
        guard !wanted.isEmpty else { return }
        let text = wanted.map { "+" + $0 }.joined(separator: " ")
        do {
            do {
                try CgroupFiles.write(text, to: base + "/cgroup.subtree_control")
            } catch let error as SentinelError where error.errno == Errno(rawValue: EBUSY) {
                try moveSelf(below: base)
                do {
                    try CgroupFiles.write(text, to: base + "/cgroup.subtree_control")
                } catch let error as SentinelError where error.errno == Errno(rawValue: EBUSY) {
                    throw Unavailable(
                        reason: "\(base) holds processes besides the launcher, and cgroup v2 lets only a cgroup "
                            + "without processes enable controllers for its children")
                }
            }
        } catch let error as Unavailable {
            throw error
        } catch {
            throw Unavailable(reason: (error as? SentinelError)?.message ?? "\(error)")
        }
    }

    private static func moveSelf(below base: String) throws {
        try moveLock.withLock { _ in
            let leaf = "\(base)/\(selfLeafPrefix)\(getpid())"
            guard mkdir(leaf, 0o755) == 0 || errno == EEXIST else {
                throw SentinelError(.sandboxSetup, "cgroup: mkdir \(leaf): \(Errno.current)", errno: .current)
            }
            try CgroupFiles.write(String(getpid()), to: leaf + "/cgroup.procs")
            // Leaves of launchers that are gone are empty: remove them.
            for name in CgroupFiles.entries(of: base) where name.hasPrefix(selfLeafPrefix) {
                guard let owner = pid_t(name.dropFirst(selfLeafPrefix.count)), owner != getpid() else { continue }
                if kill(owner, 0) != 0 && errno == ESRCH { rmdir(base + "/" + name) }
            }
        }
    }
}
