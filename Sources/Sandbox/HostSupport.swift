import FoundationEssentials
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// What this host supports for sandboxing, as values: `sentinel doctor` prints them, and
/// later callers (heal's verifier, DAST) can refuse early on a host that cannot run them.
public enum HostSupport {
    /// One fact about the host and how it bears on the sandbox.
    public struct Check: Sendable, Equatable {
        /// `ok`: works; `warn`: works with less (a limit not enforced, a tool missing);
        /// `fail`: the sandbox cannot run.
        public enum Level: String, Sendable { case ok, warn, fail }

        /// How it bears on the sandbox.
        public var level: Level
        /// What was checked (`kernel`, `seccomp`, `cgroups`, a tool's name).
        public var name: String
        /// What was found, one line.
        public var detail: String

        /// A check result; see the properties.
        public init(_ level: Level, _ name: String, _ detail: String) {
            self.level = level
            self.name = name
            self.detail = detail
        }
    }

    /// The host tools `doctor` looks for on `PATH`; the sandboxed scanners (Bandit, Semgrep,
    /// Wapiti) are checked by the scan's own availability test (`Scan.ExternalToolCheck`).
    public static let tools = ["python3", "curl", "bwrap"]

    /// Probes the kernel, user namespaces, seccomp, cgroups, overlayfs and the host tools, without
    /// starting a sandbox. `environment` supplies `PATH`.
    public static func probe(environment: [String: String]) -> [Check] {
        let mounts = (try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8)) ?? ""
        // The hierarchy this user's sandboxes would join: without root, only a delegated v2 subtree.
        let hostHierarchy = getuid() == 0 ? Cgroups.detect() : nil
        let sandboxVersion = getuid() == 0 ? hostHierarchy?.version : .v2
        var checks = [
            kernel(), user(), userNamespaces(), seccomp(), cgroups(detected: hostHierarchy),
            cgroupAttach(mounts: mounts, version: sandboxVersion), overlay(),
        ]
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        for tool in tools {
            if let found = which(tool, path: path) {
                checks.append(Check(.ok, tool, found))
            } else {
                checks.append(Check(.warn, tool, "not found"))
            }
        }
        return checks
    }

    /// The proof that probing cannot give: a real sandbox with the `minimal` profile runs `/bin/true`.
    public static func sandboxRuns() -> Check {
        do {
            let result = try SandboxSession.run(SandboxRequest(profile: .minimal, command: ["/bin/true"]))
            return Check(
                result.exitCode == 0 ? .ok : .fail, "sandbox",
                "minimal profile ran /bin/true in \(result.wallMilliseconds) ms")
        } catch {
            return Check(.fail, "sandbox", "\(error)")
        }
    }

    private static func kernel() -> Check {
        Check(.ok, "kernel", read("/proc/sys/kernel/osrelease") ?? "unknown")
    }

    private static func user() -> Check {
        getuid() == 0
            ? Check(.ok, "user", "root")
            : Check(.warn, "user", "uid \(getuid()) (cgroup limits need root or delegation)")
    }

    private static func userNamespaces() -> Check {
        let maxNamespaces = read("/proc/sys/user/max_user_namespaces").flatMap { Int($0) }
        if maxNamespaces == 0 {
            return Check(.fail, "user namespaces", "disabled (user.max_user_namespaces = 0)")
        }
        if read("/proc/sys/kernel/unprivileged_userns_clone").flatMap({ Int($0) }) == 0 && getuid() != 0 {
            return Check(.fail, "user namespaces", "unprivileged use disabled (kernel.unprivileged_userns_clone = 0)")
        }
        return Check(.ok, "user namespaces", "available (max \(maxNamespaces.map(String.init) ?? "unknown"))")
    }

    private static func seccomp() -> Check {
        do {
            let program = try SeccompProgram.builtIn()
            return Check(.ok, "seccomp", "filter mode; default program \(program.instructionCount) BPF instructions")
        } catch {
            return Check(.fail, "seccomp", "\(error)")
        }
    }

    /// `detected`: the host's hierarchy, which a root launcher's sandboxes join.
    private static func cgroups(detected: (any CgroupHierarchy)?) -> Check {
        if getuid() != 0 {
            // Without root only a delegated v2 subtree can hold the sandbox's groups.
            switch CgroupDelegation.detect(needed: ["memory", "pids", "cpu"], cgroupRoot: "/sys/fs/cgroup") {
            case .success(let hierarchy):
                return Check(.ok, "cgroups", "v2, delegated subtree \(hierarchy.root)")
            case .failure(let unavailable):
                return Check(
                    .warn, "cgroups",
                    "no delegated v2 subtree (\(unavailable.reason)): memory and pids limited by rlimits, cpu not limited")
            }
        }
        guard let hierarchy = detected else {
            return Check(.warn, "cgroups", "no usable hierarchy: memory, pids and cpu limits will not be enforced")
        }
        if hierarchy.version == .v1 {
            let controllers = ["memory", "pids", "cpu", "cpuacct"].filter {
                FileManager.default.fileExists(atPath: "/sys/fs/cgroup/\($0)/cgroup.procs")
            }
            return Check(.ok, "cgroups", "v1 (\(controllers.joined(separator: ", ")))")
        }
        return Check(.ok, "cgroups", "v2 (\(read("/sys/fs/cgroup/cgroup.controllers") ?? ""))")
    }

    /// Whether moving a sandbox's init into its cgroups must wait for an RCU grace period, for
    /// sandboxes joining `version`'s hierarchy. On v1 the init moves itself, a task alone, which
    /// takes no global lock.
    /// A v2 group's `cgroup.procs` move takes the kernel's one lock for every migration, and unless
    /// a cgroup hierarchy is mounted with `favordynmods` (Linux 6.0+) its writer first waits for a
    /// grace period, which in heal's spaced launches cost more than half its sandbox overhead
    /// (bench/heal-corpus.py, BENCHMARKS.md). The option makes every fork and exit slightly dearer
    /// instead, so it is the operator's choice; `doctor` names the mount that would take it.
    static func cgroupAttach(mounts: String, version: CgroupVersion?) -> Check {
        let cgroupMounts = mounts.split(separator: "\n").compactMap { line -> (path: String, type: Substring, options: [Substring])? in
            let fields = line.split(separator: " ")
            guard fields.count >= 4, fields[2] == "cgroup" || fields[2] == "cgroup2" else { return nil }
            return (String(fields[1]), fields[2], fields[3].split(separator: ","))
        }
        guard let first = cgroupMounts.first else { return Check(.ok, "cgroup attach", "no cgroup hierarchy mounted") }
        if version == .v1 {
            return Check(.ok, "cgroup attach", "no RCU grace period per sandbox (v1: the init moves itself into its groups)")
        }
        if let fast = cgroupMounts.first(where: { $0.options.contains("favordynmods") }) {
            return Check(.ok, "cgroup attach", "no RCU grace period per sandbox (favordynmods on \(fast.path))")
        }
        // One mount with the option is enough: the lock is the kernel's, not the hierarchy's.
        let suggested = cgroupMounts.first { $0.type == "cgroup2" }?.path ?? first.path
        return Check(
            .warn, "cgroup attach",
            "each sandbox's cgroup attach waits for an RCU grace period (often longer than the rest of the launch); "
                + "`mount -o remount,favordynmods \(suggested)` (Linux 6.0+) removes the wait at a small cost to every fork and exit")
    }

    private static func overlay() -> Check {
        let available = (try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8))?.contains("overlay") ?? false
        return available
            ? Check(.ok, "overlayfs", "available (overlay workspaces)")
            : Check(.warn, "overlayfs", "missing: --overlay unavailable")
    }

    /// The first executable `tool` in the `:`-separated `path`.
    static func which(_ tool: String, path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    private static func read(_ path: String) -> String? {
        (try? String(contentsOfFile: path, encoding: .utf8))?.trimmedOfWhitespace()
    }
}
