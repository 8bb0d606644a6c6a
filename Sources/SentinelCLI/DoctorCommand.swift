import ArgumentParser
import Foundation
import Sandbox
import Support

/// `sentinel doctor`: what this host supports, and whether a sandbox really starts.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "doctor",
                                                    abstract: "Check what this host supports.")

    func run() throws {
        var report = HostReport.collect()
        // The proof: a real sandbox with the default profile.
        do {
            let result = try SandboxSession.run(profile: .minimal, command: ["/bin/true"], workspace: nil,
                                                output: .capture)
            report.add(result.exitCode == 0 ? .ok : .fail, "sandbox", "minimal profile ran /bin/true in \(result.wallMilliseconds) ms")
        } catch {
            report.add(.fail, "sandbox", "\(error)")
        }
        for line in report.lines { Console.out(line) }
        if report.hasFailure { throw ExitCode(1) }
    }
}

/// Facts about the host, each marked ok, warn or fail.
struct HostReport {
    enum Level: String { case ok = "ok  ", warn = "warn", fail = "FAIL" }
    private(set) var lines: [String] = []
    private(set) var hasFailure = false

    mutating func add(_ level: Level, _ name: String, _ detail: String) {
        lines.append("\(level.rawValue)  \(name.padding(toLength: 16, withPad: " ", startingAt: 0))\(detail)")
        if level == .fail { hasFailure = true }
    }

    static func collect() -> HostReport {
        var report = HostReport()
        let kernel = (try? String(contentsOfFile: "/proc/sys/kernel/osrelease", encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? "unknown"
        report.add(.ok, "kernel", kernel)
        report.add(getuid() == 0 ? .ok : .warn, "user", getuid() == 0 ? "root" : "uid \(getuid()) (cgroup limits need root or delegation)")

        let maxNamespaces = readNumber("/proc/sys/user/max_user_namespaces")
        if maxNamespaces == 0 {
            report.add(.fail, "user namespaces", "disabled (user.max_user_namespaces = 0)")
        } else if readNumber("/proc/sys/kernel/unprivileged_userns_clone") == 0 && getuid() != 0 {
            report.add(.fail, "user namespaces", "unprivileged use disabled (kernel.unprivileged_userns_clone = 0)")
        } else {
            report.add(.ok, "user namespaces", "available (max \(maxNamespaces.map(String.init) ?? "unknown"))")
        }

        do {
            let program = try SeccompProgram.builtIn()
            report.add(.ok, "seccomp", "filter mode; default program \(program.instructionCount) BPF instructions")
        } catch {
            report.add(.fail, "seccomp", "\(error)")
        }

        if getuid() != 0 {
            // Without root only a delegated v2 subtree can hold the sandbox's groups.
            switch CgroupDelegation.detect(needed: ["memory", "pids", "cpu"], cgroupRoot: "/sys/fs/cgroup") {
            case .success(let hierarchy):
                report.add(.ok, "cgroups", "v2, delegated subtree \(hierarchy.root)")
            case .failure(let unavailable):
                report.add(.warn, "cgroups", "no delegated v2 subtree (\(unavailable.reason)): memory and pids limited by rlimits, cpu not limited")
            }
        } else if let hierarchy = Cgroups.detect() {
            let detail: String
            if hierarchy.version == .v1 {
                let controllers = ["memory", "pids", "cpu", "cpuacct"].filter {
                    FileManager.default.fileExists(atPath: "/sys/fs/cgroup/\($0)/cgroup.procs")
                }
                detail = "v1 (\(controllers.joined(separator: ", ")))"
            } else {
                let controllers = (try? String(contentsOfFile: "/sys/fs/cgroup/cgroup.controllers", encoding: .utf8)) ?? ""
                detail = "v2 (\(controllers.trimmingCharacters(in: .whitespacesAndNewlines)))"
            }
            report.add(.ok, "cgroups", detail)
        } else {
            report.add(.warn, "cgroups", "no usable hierarchy: memory, pids and cpu limits will not be enforced")
        }

        let filesystems = (try? String(contentsOfFile: "/proc/filesystems", encoding: .utf8)) ?? ""
        report.add(filesystems.contains("overlay") ? .ok : .warn, "overlayfs",
                   filesystems.contains("overlay") ? "available (overlay workspaces)" : "missing: --overlay unavailable")

        let toolsDirectory = ProcessInfo.processInfo.environment["SENTINEL_TOOLS"] ?? "/opt/sentinel-tools/venv"
        for tool in ["python3", "curl", "bandit", "semgrep", "wapiti", "bwrap"] {
            let installed = toolsDirectory + "/bin/" + tool
            if ["bandit", "semgrep"].contains(tool), access(installed, X_OK) == 0 {
                report.add(.ok, tool, "\(installed) (runs in the sandbox)")
            } else if let path = which(tool) {
                report.add(.ok, tool, path)
            } else {
                report.add(.warn, tool, "not found")
            }
        }
        return report
    }

    private static func readNumber(_ path: String) -> Int? {
        (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(tool)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }
}
