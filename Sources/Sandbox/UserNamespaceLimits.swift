import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// One per-user-namespace limit the sandbox's init writes in its own user namespace:
/// `/proc/sys/user/<name>` = `value`.
public struct UserNamespaceLimit: Sendable, Equatable {
    /// The file name under `/proc/sys/user`, e.g. `max_inotify_instances`.
    public var name: String
    /// The value written to it.
    public var value: Int

    /// Makes a limit writing `value` to `/proc/sys/user/<name>`.
    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }

    /// The file the init opens (before its root is built, through the host's /proc).
    public var path: String { UserNamespaceLimits.directory + "/" + name }
}

/// The limits a sandbox gets. The kernel counts inotify and fanotify objects and namespaces
/// per user in the creating namespace *and every ancestor*, charged there to the namespace's
/// owner (the launcher's uid): without a lower limit inside, a payload spends host root's
/// quota. A limit inside bounds the sandbox whatever the host's is.
public enum UserNamespaceLimits {
    static let directory = "/proc/sys/user"

    /// Namespace kinds with a `max_<kind>_namespaces` limit. Creating them is already refused
    /// by seccomp; 0 here holds even under an OCI seccomp profile that allows it.
    static let namespaceKinds = ["user", "mnt", "pid", "net", "ipc", "uts", "cgroup", "time"]

    /// The limits for `limits`. `host` reads one of the launcher's own values (nil: the kernel
    /// has no such file, so it is skipped); inotify values are cut to half the host's, so one
    /// sandbox never takes more than half of what the launcher's uid may hold.
    public static func make(_ limits: Profile.Limits, host: (String) -> Int? = hostValue) -> [UserNamespaceLimit] {
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
            return UserNamespaceLimit(name: name, value: min(value, max(1, current / 2)))
        }
    }

    /// The value this process's user namespace has, or nil when the file does not exist.
    @Sendable public static func hostValue(_ name: String) -> Int? {
        let fd = open(directory + "/" + name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
