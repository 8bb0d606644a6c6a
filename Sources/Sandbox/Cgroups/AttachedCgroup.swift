import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The cgroup one run is placed in (when limits are enforced by a cgroup), with its
/// `cgroup.procs` files opened for the C launcher to write the init's pid into.
final class AttachedCgroup {
    /// The live group; nil when the limits fall back to rlimits.
    let group: (any CgroupGroup)?
    /// Opened procs files, in the order the group lists them.
    private(set) var procsFDs: [Int32] = []

    /// Removes groups a killed launcher left, makes this run's group and opens its procs files.
    /// On failure nothing is left behind.
    init(_ enforcement: LimitEnforcement, options: LaunchOptions) throws {
        guard case .cgroup(let hierarchy) = enforcement else {
            group = nil
            return
        }
        Cgroups.removeStale(in: hierarchy)
        let group = try hierarchy.create(name: Cgroups.nextName(label: options.cgroupLabel), limits: options.cgroupLimits)
        self.group = group
        for path in group.procsFiles {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let error = SentinelError.sandboxSetup(stage: "cgroup attach", errno: .current, detail: path)
                destroy()
                throw error
            }
            procsFDs.append(fd)
        }
    }

    deinit { closeProcsFiles() }

    /// Closes the procs files once the launcher has written the pid.
    func closeProcsFiles() {
        for fd in procsFDs { close(fd) }
        procsFDs = []
    }

    /// Removes the group (after the tree has ended).
    func destroy() {
        closeProcsFiles()
        group?.destroy()
    }
}
