import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The cgroup one run is placed in (when limits are enforced by a cgroup), with the files the
/// init enters it by opened (`CgroupGroup.attachFiles`): the launcher's credentials are the ones
/// the kernel checks, also when the init writes them.
final class AttachedCgroup {
    /// The live group; nil when the limits fall back to rlimits.
    let group: (any CgroupGroup)?
    /// Opened attach files, in the order the group lists them.
    private(set) var attachFDs: [Int32] = []

    /// Removes groups a killed launcher left, makes this run's group and opens its attach files.
    /// On failure nothing is left behind.
    init(_ enforcement: LimitEnforcement, options: LaunchOptions) throws {
        guard case .cgroup(let hierarchy) = enforcement else {
            group = nil
            return
        }
        Cgroups.removeStale(in: hierarchy)
        let group = try hierarchy.create(name: Cgroups.nextName(label: options.cgroupLabel), limits: options.cgroupLimits)
        self.group = group
        for path in group.attachFiles {
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else {
                let error = SentinelError.sandboxSetup(stage: "cgroup attach", errno: .current, detail: path)
                destroy()
                throw error
            }
            attachFDs.append(fd)
        }
    }

    deinit { closeAttachFiles() }

    /// Closes the attach files once the init is in the group.
    func closeAttachFiles() {
        for fd in attachFDs { close(fd) }
        attachFDs = []
    }

    /// Removes the group (after the tree has ended).
    func destroy() {
        closeAttachFiles()
        group?.destroy()
    }
}
