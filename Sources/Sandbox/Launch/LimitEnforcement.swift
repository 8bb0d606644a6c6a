import Support

#if canImport(Glibc)
    import Glibc
#endif

/// How one run's memory, pids and cpu limits are enforced: a cgroup when the launcher may make
/// one (as root, or in a cgroup v2 subtree delegated to it), else rlimits that approximate them.
///
/// The rlimit fallback is weaker, and says so in `notice`:
/// - memory: `RLIMIT_DATA` (private writable memory: heap, anonymous mappings) per process.
///   Chosen over `RLIMIT_AS`, which also counts address space reserved and never touched
///   (thread stacks, allocator arenas, runtimes that reserve gigabytes up front) and so breaks
///   ordinary multithreaded tools at limits a cgroup would allow. Per process, not per tree:
///   `pids` bounds how many such processes there are. Shared memory (memfd, `MAP_SHARED`) is
///   bounded only by `fileSize`.
/// - pids: `RLIMIT_NPROC`, which counts the tasks of one uid. Since Linux 5.14 the count is per
///   user namespace, so it covers this sandbox alone (init included, like a cgroup's `pids.max`);
///   older kernels count every process the user runs on the host.
/// - cpu: not limited. A cgroup quota caps a rate (cores); `RLIMIT_CPU` caps each process's total
///   seconds, which is a different limit, and the wall-clock timeout already bounds the run.
enum LimitEnforcement {
    case cgroup(any CgroupHierarchy)
    case rlimits([LaunchPlan.ResourceLimit], notice: String?)

    /// Picks the enforcement for `options` as a launcher with effective uid `euid`. Throws
    /// `SentinelError` (stage `limits`) when only the fallback is possible and the caller
    /// required real limits.
    static func choose(_ options: LaunchOptions, euid: uid_t = geteuid()) throws -> LimitEnforcement {
        let limits = options.cgroupLimits
        let unavailable: String
        if euid == 0 {
            switch Cgroups.detect(root: options.cgroupRoot) {
            case let v2 as CgroupV2:
                // Enabled now, so that a root that cannot delegate falls back like a user does.
                do throws(CgroupDelegation.Unavailable) {
                    try v2.enableControllers()
                    return .cgroup(v2)
                } catch {
                    unavailable = "cgroups unavailable (\(error.reason))"
                }
            case let hierarchy?: return .cgroup(hierarchy)
            case nil: unavailable = "cgroups unavailable"
            }
        } else {
            switch CgroupDelegation.detect(
                needed: CgroupDelegation.controllers(for: limits),
                cgroupRoot: options.cgroupRoot)
            {
            case .success(let hierarchy): return .cgroup(hierarchy)
            case .failure: unavailable = "cgroups unavailable without root"
            }
        }
        guard limits != CgroupLimits() else { return .rlimits([], notice: nil) }
        if options.requireLimits {
            let names = [
                limits.memoryBytes != nil ? "memory" : nil, limits.pids != nil ? "pids" : nil,
                limits.cpus != nil ? "cpu" : nil,
            ].compactMap { $0 }
            throw SentinelError.sandboxSetup(
                stage: "limits", errno: nil,
                detail: "\(unavailable): \(list(names)) limits cannot be enforced, and --require-limits is set")
        }
        return .rlimits(rlimits(for: limits), notice: notice(for: limits, prefix: unavailable))
    }

    /// The rlimits that stand in for `limits` (see the type's comment).
    static func rlimits(for limits: CgroupLimits) -> [LaunchPlan.ResourceLimit] {
        var result: [LaunchPlan.ResourceLimit] = []
        if let bytes = limits.memoryBytes {
            result.append(.init(resource: Int32(RLIMIT_DATA.rawValue), soft: bytes, hard: bytes))
        }
        if let pids = limits.pids {
            result.append(.init(resource: Int32(__RLIMIT_NPROC.rawValue), soft: UInt64(pids), hard: UInt64(pids)))
        }
        return result
    }

    /// One line naming what the rlimits enforce and what nothing enforces, e.g.
    /// `cgroups unavailable without root: memory and pids limited by rlimits, cpu not limited`.
    static func notice(for limits: CgroupLimits, prefix: String) -> String {
        let approximated = [limits.memoryBytes != nil ? "memory" : nil, limits.pids != nil ? "pids" : nil]
            .compactMap { $0 }
        var parts: [String] = []
        if !approximated.isEmpty { parts.append("\(list(approximated)) limited by rlimits") }
        if limits.cpus != nil { parts.append("cpu not limited") }
        return "\(prefix): \(parts.joined(separator: ", "))"
    }

    /// `limits` lowered to the launcher's own hard limits: nothing in the sandbox may raise a hard
    /// limit (that needs CAP_SYS_RESOURCE in the host's user namespace), so a profile asking for
    /// more than the caller has gets what the caller has instead of a failed setup.
    static func clamped(_ limits: [LaunchPlan.ResourceLimit]) -> [LaunchPlan.ResourceLimit] {
        limits.map { limit in
            var current = rlimit()
            guard getrlimit(__rlimit_resource_t(UInt32(limit.resource)), &current) == 0 else { return limit }
            let hard = min(limit.hard, UInt64(current.rlim_max))
            return .init(resource: limit.resource, soft: min(limit.soft, hard), hard: hard)
        }
    }

    private static func list(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
