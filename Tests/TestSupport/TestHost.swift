#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// What the host offers the tests. A test that needs one of these gates itself with
/// `.enabled(if: TestHost.canSandbox, "needs root and user namespaces")`; on the project's
/// machines every gate is open, so every test runs there.
public enum TestHost {
    /// The tests run as root (cgroups, idmapped mounts, the root launcher's paths).
    public static let isRoot = getuid() == 0

    /// User namespaces exist and are not switched off (`user.max_user_namespaces` > 0).
    public static let userNamespaces: Bool = {
        guard FileManager.default.fileExists(atPath: "/proc/self/ns/user"),
            let text = try? String(contentsOfFile: "/proc/sys/user/max_user_namespaces", encoding: .utf8)
        else { return false }
        return (Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) > 0
    }()

    /// A root launcher can build a sandbox here, and this run is not `make test-unit`'s tier.
    public static let canSandbox = isRoot && userNamespaces && !TestTier.isUnit

    /// The memory controller is mounted as cgroup v1 (this project's machines).
    public static let cgroupV1 = FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/memory.limit_in_bytes")
}
