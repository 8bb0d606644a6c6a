import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sentinel` run as `nobody` (uid 65534, no supplementary groups): unprivileged user
/// namespaces, and rlimits in place of cgroups (this host delegates no cgroup v2 subtree).
enum Nobody {
    static let uid: UInt32 = 65534
    static let setpriv = "/usr/bin/setpriv"

    /// Root to drop from, user namespaces, setpriv, a binary and examples `nobody` can reach,
    /// and no cgroup v2 subtree delegated to `nobody` (which would replace the rlimit fallback).
    static let available: Bool = {
        guard getuid() == 0, TestHost.canSandbox, FileManager.default.isExecutableFile(atPath: setpriv) else { return false }
        let reach = try? run(
            ["sh", "-c", "test -x \"$0\" && test -r \"$1\"", CLI.binary, CLI.packageRoot + "/examples/app.py"],
            direct: true)
        return reach?.status == 0 && !cgroupDelegated
    }()

    private static let cgroupDelegated: Bool = {
        let own =
            ((try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? "")
            .split(separator: "\n").first { $0.hasPrefix("0::") }.map { String($0.dropFirst(3)) } ?? "/"
        return ["/sys/fs/cgroup", "/sys/fs/cgroup/unified"].contains { mount in
            var info = stat()
            return stat(mount + (own == "/" ? "" : own) + "/cgroup.procs", &info) == 0 && info.st_uid == uid
        }
    }()

    static let notice =
        "sentinel: notice: cgroups unavailable without root: memory and pids limited by rlimits, cpu not limited\n"

    /// Runs `sentinel ARGS` (or, `direct`, the command itself) as nobody.
    static func run(
        _ arguments: [String], direct: Bool = false, environment: [String: String] = [:],
        directory: String? = nil, timeout: Double = 120
    ) throws -> CLI.Result {
        var env = ["PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/tmp", "LANG": "C.UTF-8"]
        env.merge(environment) { _, new in new }
        return try CLI.runProgram(
            setpriv,
            ["--reuid=\(uid)", "--regid=\(uid)", "--clear-groups", "--"]
                + (direct ? [] : [CLI.binary]) + arguments,
            environment: env, directory: directory ?? "/", timeout: timeout)
    }

    /// A fresh directory `nobody` owns, removed afterwards.
    static func directory() throws -> String {
        let path = NSTemporaryDirectory() + "sentinel-nobody-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        chown(path, uid, uid)
        return path
    }
}

private func occurrences(of needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

@Suite(.enabled(if: Nobody.available, "needs root to drop to nobody, user namespaces, and files nobody can read"))
struct NonRootSandboxCLITests {
    @Test(arguments: ["ro", "rw", "overlay"])
    func workspaceModesWorkAsNobody(mode: String) throws {
        let workspace = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        try "hello\n".write(toFile: workspace + "/in.txt", atomically: false, encoding: .utf8)
        chown(workspace + "/in.txt", Nobody.uid, Nobody.uid)

        let result = try Nobody.run([
            "sandbox", "run", "--workspace", workspace, "--\(mode)", "--",
            "sh", "-c", "id -u; cat in.txt; echo new > out.txt && cat out.txt",
        ])
        let written = FileManager.default.fileExists(atPath: workspace + "/out.txt")
        switch mode {
        case "ro":
            #expect(result.status == 2)
            #expect(result.stdout == "65534\nhello\n")
            #expect(result.stderr.contains("Read-only file system"))
            #expect(!written)
        case "rw":
            #expect(result.status == 0)
            #expect(result.stdout == "65534\nhello\nnew\n")
            var info = stat()
            #expect(stat(workspace + "/out.txt", &info) == 0 && info.st_uid == Nobody.uid)
        default:
            #expect(result.status == 0)
            #expect(result.stdout == "65534\nhello\nnew\n")
            #expect(!written, "the overlay's writes must not reach the host tree")
        }
        #expect(occurrences(of: Nobody.notice, in: result.stderr) == 1)
    }

    @Test(arguments: ["minimal", "scan-bandit", "scan-semgrep", "scan-wapiti", "fix-verify", "dast"])
    func everyShippedProfileRunsAsNobody(profile: String) throws {
        let workspace = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        let result = try Nobody.run([
            "sandbox", "run", "--profile", profile, "--workspace", workspace, "--",
            "sh", "-c", "pwd; id -u",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "/workspace\n65534\n")
    }

    @Test func aMemoryBombIsStoppedByTheRlimitFallback() throws {
        // Allocates up to 1 GiB in 8 MiB steps; the 64 MiB limit must stop it long before.
        let bomb = """
            chunks = []
            for _ in range(128):
                chunks.append(bytearray(8 << 20))
            print("allocated", len(chunks) * 8, "MiB")
            """
        let directory = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let status = directory + "/status.json"
        let result = try Nobody.run([
            "sandbox", "run", "--memory", "64M", "--status-json", status, "--",
            "python3", "-c", bomb,
        ])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("MemoryError"))
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: status))) as? [String: Any]
        let peak = (json?["peakMemoryBytes"] as? NSNumber)?.uint64Value ?? .max
        #expect(peak < 256 << 20, "peak \(peak) bytes: far above the 64 MiB limit")
    }

    @Test func requireLimitsFailsTheSetup() throws {
        let result = try Nobody.run(["sandbox", "run", "--require-limits", "--", "true"])
        #expect(result.status == 125)
        #expect(
            result.stderr
                == "sentinel: sandbox setup failed at limits (cgroups unavailable without root: memory, pids and cpu limits cannot be enforced, and --require-limits is set)\n"
        )
    }

    @Test func proxyEgressWorksAsNobody() throws {
        let server = try LoopbackServer()
        let result = try Nobody.run([
            "sandbox", "run", "--allow", "127.0.0.1:\(server.port)", "--", "python3", "-c",
            "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:\(server.port)/').status)",
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "200\n")
        withExtendedLifetime(server) {}
    }
}

@Suite(.enabled(if: Nobody.available, "needs root to drop to nobody, user namespaces, and files nobody can read"))
struct NonRootScanCLITests {
    private static let bandit =
        ProcessInfo.processInfo.environment["SENTINEL_TOOLS"].map { $0 + "/bin/bandit" }
        ?? "/opt/sentinel-tools/venv/bin/bandit"
    private static let hasBandit = FileManager.default.isExecutableFile(atPath: bandit)

    @Test func scanningTheExamplesFindsIssuesNotAFailure() throws {
        let home = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try Nobody.run(
            ["scan", CLI.packageRoot + "/examples", "--allow-missing-db"], environment: ["SENTINEL_HOME": home])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("findings:") || result.stdout.contains(" findings"))
        #expect(!result.stderr.contains("error"))
    }

    @Test(.enabled(if: hasBandit, "needs bandit in the tools venv"))
    func banditRunsSandboxedAsNobodyWithOneNotice() throws {
        let home = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try Nobody.run(
            ["scan", CLI.packageRoot + "/examples", "--tools", "bandit", "--format", "json"],
            environment: ["SENTINEL_HOME": home])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr == Nobody.notice)
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = json?["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["tool"] as? String == "bandit" })
    }

    @Test(.enabled(if: hasBandit, "needs bandit in the tools venv"))
    func requireLimitsFailsTheToolWithTheReasonPrintedOnce() throws {
        let home = try Nobody.directory()
        defer { try? FileManager.default.removeItem(atPath: home) }
        let report = home + "/report.txt"
        let result = try Nobody.run(
            [
                "scan", CLI.packageRoot + "/examples", "--tools", "bandit", "--require-limits",
                "--output", report,
            ], environment: ["SENTINEL_HOME": home])
        #expect(result.status == 3)
        let reason =
            "sandbox setup failed at limits (cgroups unavailable without root: memory, pids and cpu limits cannot be enforced, and --require-limits is set)"
        #expect(occurrences(of: reason, in: result.stderr) == 1, "\(result.stderr)")
        #expect(occurrences(of: reason, in: result.stdout) == 0)

        // With the text report on stdout too, the failure is still said once in all.
        let both = try Nobody.run(
            ["scan", CLI.packageRoot + "/examples", "--tools", "bandit", "--require-limits"],
            environment: ["SENTINEL_HOME": home])
        #expect(both.status == 3)
        #expect(occurrences(of: reason, in: both.stdout + both.stderr) == 1, "\(both.stdout)\(both.stderr)")
    }
}
