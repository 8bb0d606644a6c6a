import Support

/// The per-user-namespace limits a sandbox gets (`/proc/sys/user`). The kernel counts inotify
/// and fanotify objects and namespaces per user in the creating namespace *and every ancestor*,
/// charged there to the namespace's owner (the launcher's uid): without a lower limit inside, a
/// payload spends host root's quota. A limit inside bounds the sandbox whatever the host's is.
public enum UserNamespaceLimits {
    /// Namespace kinds with a `max_<kind>_namespaces` limit. Creating them is already refused
    /// by seccomp; 0 here holds even under an OCI seccomp profile that allows it.
    static let namespaceKinds = ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"]

    /// The limits for `limits`. `present` says whether the kernel has a limit's file (one it lacks
    /// is skipped); `host` reads one of the launcher's own values by file name, for the inotify
    /// limits only: they are cut to half the host's, so one sandbox never takes more than half of
    /// what the launcher's uid may hold. Every other limit is 0 whatever the host's value.
    public static func make(
        _ limits: Profile.Limits, present: (String) -> Bool = hostHas,
        host: (String) -> Int? = hostValue
    ) -> [NamespaceSysctl] {
        let halved: [(String, Int)] = [
            ("max_inotify_instances", limits.inotifyInstances),
            ("max_inotify_watches", limits.inotifyWatches),
        ]
        // fanotify_init is refused by the default seccomp filter; no tool we run needs it.
        let zero = ["max_fanotify_groups", "max_fanotify_marks"] + namespaceKinds.map { "max_\($0)_namespaces" }
        let cut = halved.compactMap { name, value in
            present(name) ? host(name).map { (name, min(value, max(1, $0 / 2))) } : nil
        }
        return (cut + zero.filter(present).map { ($0, 0) }).map {
            NamespaceSysctl(name: "user/" + $0, value: String($1))
        }
    }

    /// Whether the launcher's `/proc/sys/user` has file `name`.
    @Sendable public static func hostHas(_ name: String) -> Bool { hostNames.contains(name) }

    /// The files of the launcher's `/proc/sys/user`, listed once per process (they are the
    /// kernel's, fixed until it restarts): one listing instead of a read per limit per launch.
    private static let hostNames: Set<String> = {
        guard let directory = try? DirectoryDescriptor.workingDirectory.openDirectory(NamespaceSysctl.directory + "/user"),
            let entries = try? directory.entries()
        else { return [] }
        return Set(entries.map(\.text))
    }()

    /// The value of `/proc/sys/user/<name>` in this process's user namespace, or nil when the
    /// file does not exist.
    @Sendable public static func hostValue(_ name: String) -> Int? {
        NamespaceSysctl.hostText("user/" + name).flatMap { Int($0) }
    }
}
