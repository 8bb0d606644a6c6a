/// The per-user-namespace limits a sandbox gets (`/proc/sys/user`). The kernel counts inotify
/// and fanotify objects and namespaces per user in the creating namespace *and every ancestor*,
/// charged there to the namespace's owner (the launcher's uid): without a lower limit inside, a
/// payload spends host root's quota. A limit inside bounds the sandbox whatever the host's is.
public enum UserNamespaceLimits {
    /// Namespace kinds with a `max_<kind>_namespaces` limit. Creating them is already refused
    /// by seccomp; 0 here holds even under an OCI seccomp profile that allows it.
    static let namespaceKinds = ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"]

    /// The limits for `limits`. `host` reads one of the launcher's own values by file name
    /// (nil: the kernel has no such file, so it is skipped); inotify values are cut to half the
    /// host's, so one sandbox never takes more than half of what the launcher's uid may hold.
    public static func make(_ limits: Profile.Limits, host: (String) -> Int? = hostValue) -> [NamespaceSysctl] {
        var wanted: [(String, Int)] = [
            ("max_inotify_instances", limits.inotifyInstances),
            ("max_inotify_watches", limits.inotifyWatches),
            // fanotify_init is refused by the default seccomp filter; no tool we run needs it.
            ("max_fanotify_groups", 0),
            ("max_fanotify_marks", 0),
        ]
        wanted += namespaceKinds.map { ("max_\($0)_namespaces", 0) }
        return wanted.compactMap { name, value in
            guard let current = host(name) else { return nil }
            return NamespaceSysctl(name: "user/" + name, value: String(min(value, max(1, current / 2))))
        }
    }

    /// The value of `/proc/sys/user/<name>` in this process's user namespace, or nil when the
    /// file does not exist.
    @Sendable public static func hostValue(_ name: String) -> Int? {
        NamespaceSysctl.hostText("user/" + name).flatMap { Int($0) }
    }
}
