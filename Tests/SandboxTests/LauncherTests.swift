#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Synchronization
import TestSupport
import Testing
@testable import Sandbox

/// Runs `command` in a sandbox built from `profile`, capturing its output.
func runSandboxed(
    _ command: [String], profile: Profile = .minimal, workspace: String? = nil,
    limits: CgroupLimits? = nil, timeout: Double? = nil, outputLimit: UInt64? = nil,
    environment: [String: String] = [:], cgroupLabel: String? = nil
) throws -> RunResult {
    var options = LaunchOptions(profile: profile, output: .capture)
    if let limits { options.cgroupLimits = limits }
    if let timeout { options.timeoutSeconds = timeout }
    if let outputLimit { options.outputLimit = outputLimit }
    options.cgroupLabel = cgroupLabel
    return try NewRootDirectory.with { root in
        let plan = try LaunchPlan.make(
            LaunchRequest(
                profile: profile, command: command, workspace: workspace,
                callerEnvironment: environment),
            newRoot: root)
        return try Launcher.run(plan, options: options)
    }
}

extension RunResult {
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
}

@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct LauncherTests {
    @Test func runsACommandAndCapturesItsOutput() throws {
        let result = try runSandboxed(["/bin/sh", "-c", "echo out; echo err >&2; exit 3"])
        #expect(result.out == "out\n")
        #expect(result.err == "err\n")
        #expect(result.exitCode == 3)
        #expect(result.reason == .exited)
        #expect(result.wallMilliseconds >= 0)
    }

    /// The user database is asked while the init builds its root: a host id it names stops the
    /// launch before the payload starts (nothing it would write appears), and leaves no group.
    @Test func aPayloadIsNeverReleasedAsAHostIDTheDatabaseNames() throws {
        let parent = TemporaryDirectory("sentinel-assigned-id")
        let workspace = parent.path + "/workspace"
        try FileManager.default.createDirectory(atPath: workspace, withIntermediateDirectories: true)
        var profile = Profile.minimal
        profile.filesystem.workspace = .rw
        let label = "assigned_\(getpid())"
        func launch(assigned: Bool) throws -> RunResult {
            let lease = try HostIDLease.acquire(
                range: HostIDRange(start: 0x7000_0000, count: 64), directory: parent.path + "/run",
                isAssigned: { _ in assigned }, confirmingLater: true)
            var options = LaunchOptions(profile: profile, output: .capture)
            options.hostIDLease = lease
            options.cgroupLabel = label
            return try NewRootDirectory.with { root in
                let plan = try LaunchPlan.make(
                    LaunchRequest(profile: profile, command: ["/bin/sh", "-c", "echo ran > /workspace/ran"], workspace: workspace),
                    newRoot: root, payloadHostID: lease.id)
                return try Launcher.run(plan, options: options)
            }
        }
        #expect(throws: HostIDLease.Assigned.self) { try launch(assigned: true) }
        #expect(!FileManager.default.fileExists(atPath: workspace + "/ran"))
        #expect(Cgroups.detect().map { $0.groups(withPrefix: Cgroups.prefix).filter { $0.hasSuffix(label) } } ?? [] == [])
        let result = try launch(assigned: false)
        #expect(result.exitCode == 0, "\(result.err)")
        #expect((try? String(contentsOfFile: workspace + "/ran", encoding: .utf8)) == "ran\n")
    }

    /// Every mask of a hidden file is read-only, nosuid, nodev and noexec, as the payload's
    /// mount table shows it (the masks copy those flags from the empty file's own mount).
    @Test func everyMaskedFileIsAReadOnlyMountInside() throws {
        var profile = Profile.minimal
        profile.filesystem.hidden = ["/etc/shadow", "/etc/machine-id"]
        let result = try runSandboxed(["/bin/cat", "/proc/self/mountinfo"], profile: profile)
        #expect(result.exitCode == 0, "\(result.err)")
        let options = Dictionary(
            result.out.split(separator: "\n").compactMap { line -> (String, String)? in
                let fields = line.split(separator: " ")
                return fields.count > 5 ? (String(fields[4]), String(fields[5])) : nil
            }, uniquingKeysWith: { _, last in last })
        let masked = ["/etc/shadow", "/proc/kallsyms", "/proc/keys", "/proc/timer_list"].filter {
            FileManager.default.fileExists(atPath: $0)
        }
        #expect(!masked.isEmpty)
        for path in masked {
            let flags = Set((options[path] ?? "").split(separator: ",").map(String.init))
            #expect(flags.isSuperset(of: ["ro", "nosuid", "nodev", "noexec"]), "\(path): \(options[path] ?? "not a mount")")
        }
    }

    @Test func searchesPathInsideTheSandbox() throws {
        let result = try runSandboxed(["echo", "found"])
        #expect(result.out == "found\n")
    }

    @Test func payloadIsUnprivilegedInFreshNamespaces() throws {
        let result = try runSandboxed([
            "/bin/sh", "-c",
            "id -u; id -g; id -G; hostname; echo $$; grep -E '^(CapEff|CapBnd|CapAmb|NoNewPrivs|Seccomp):' /proc/self/status",
        ])
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 10, "\(result.out) \(result.err)")
        guard lines.count == 10 else { return }
        #expect(lines[0] == "65534")
        #expect(lines[1] == "65534")
        #expect(lines[2] == "65534", "supplementary groups are shed")
        #expect(lines[3] == "sentinel")
        #expect(Int(lines[4]).map { $0 < 10 } == true, "pid namespace: the shell is one of the first pids")
        #expect(lines[5].hasSuffix("0000000000000000"))
        #expect(lines[6].hasSuffix("0000000000000000"))
        #expect(lines[7].hasSuffix("0000000000000000"))
        #expect(lines[8].hasSuffix("1"))
        #expect(lines[9].hasSuffix("2"))
    }

    @Test func onlyLoopbackExistsAndItIsUp() throws {
        let result = try runSandboxed(["/bin/sh", "-c", "cat /proc/net/dev | tail -n +3 | cut -d: -f1 | tr -d ' '"])
        #expect(result.out == "lo\n")
    }

    @Test func signalDeathMapsTo128PlusN() throws {
        let result = try runSandboxed(["/bin/sh", "-c", "kill -TERM $$"])
        #expect(result.reason == .signaled)
        #expect(result.signal == SIGTERM)
        #expect(result.exitCode == 128 + SIGTERM)
    }

    @Test func wallClockLimitKillsTheTree() throws {
        let started = Date()
        let result = try runSandboxed(["/bin/sh", "-c", "sleep 300 & sleep 300"], timeout: 0.5)
        #expect(result.reason == .timeout)
        #expect(result.exitCode == 124)
        // `.timeout` says the limit, not the sleeps' end, stopped it; load can only make that
        // later, never before the limit.
        #expect(Date().timeIntervalSince(started) >= 0.5)
    }

    @Test func memoryLimitIsReportedAsOOM() throws {
        let result = try runSandboxed(
            ["/usr/bin/python3", "-c", "b = bytearray(256 << 20); print(len(b))"],
            limits: CgroupLimits(memoryBytes: 48 << 20, pids: 16))
        #expect(result.reason == .oom)
        #expect(result.exitCode == 137)
        #expect((result.peakMemoryBytes ?? 0) > 16 << 20)
    }

    @Test func pidsLimitRefusesForks() throws {
        let result = try runSandboxed(
            [
                "/bin/sh", "-c",
                "i=0; while [ $i -lt 40 ]; do sleep 5 & i=$((i+1)); done 2>/dev/null; echo started",
            ],
            limits: CgroupLimits(pids: 8), timeout: 10)
        #expect(
            result.err.contains("fork") || result.err.contains("Resource temporarily unavailable") || result.exitCode != 0,
            "\(result.out) \(result.err)")
    }

    @Test func outputIsCutAtTheLimit() throws {
        let result = try runSandboxed(["/bin/sh", "-c", "head -c 100000 /dev/zero"], outputLimit: 1000)
        #expect(result.stdout.count == 1000)
        #expect(result.stdoutTruncated)
        #expect(result.exitCode == 0)
    }

    @Test func stdinIsEmpty() throws {
        let result = try runSandboxed(["/bin/sh", "-c", "wc -c"])
        #expect(result.out.trimmingCharacters(in: .whitespaces) == "0\n")
    }

    @Test func missingCommandIsAnExecFailureNamingExecve() {
        do {
            _ = try runSandboxed(["no-such-command-anywhere"])
            Issue.record("ran a missing command")
        } catch let error as SentinelError {
            #expect(error.code == .commandNotFound)
            #expect(error.stage == "execve")
            #expect(error.errno?.rawValue == ENOENT)
            #expect(error.exitStatus == 127)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func setupFailureNamesTheStageAndErrno() throws {
        // Profile paths are optional; a path given by the caller is not. Use a plan whose
        // op fails in the child instead: mount a file over a directory.
        let directory = try NewRootDirectory.create()
        defer { directory.remove() }
        let root = directory.path
        var plan = try? LaunchPlan.make(LaunchRequest(profile: .minimal, command: ["/bin/true"]), newRoot: root)
        plan?.filesystem.append(
            .mount(
                source: "/etc/hostname", path: root + "/usr",
                fstype: nil, flags: [.bind], data: nil, optional: false))
        guard let plan else { Issue.record("no plan"); return }
        do {
            _ = try Launcher.run(plan, options: LaunchOptions(profile: .minimal))
            Issue.record("setup succeeded")
        } catch let error as SentinelError {
            #expect(error.code == .sandboxSetup)
            #expect(error.stage == "mount")
            #expect(error.errno?.rawValue == ENOTDIR)
            #expect(error.description == "sandbox setup failed at mount (\(root)/usr): Not a directory")
            #expect(error.exitStatus == 125)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func workspaceModesBehave() throws {
        let workspace = TemporaryDirectory()
        workspace.write("input.txt", "data\n")
        var profile = Profile.minimal
        let ro = try runSandboxed(
            ["/bin/sh", "-c", "cat input.txt; echo x > new.txt"], profile: profile,
            workspace: workspace.path)
        #expect(ro.out == "data\n")
        #expect(ro.err.contains("Read-only file system"))

        profile.filesystem.workspace = .overlay
        let overlay = try runSandboxed(
            ["/bin/sh", "-c", "echo changed > input.txt; echo x > new.txt; cat input.txt"],
            profile: profile, workspace: workspace.path)
        #expect(overlay.out == "changed\n", "\(overlay.err)")
        #expect(try String(contentsOfFile: workspace.path + "/input.txt", encoding: .utf8) == "data\n")
        #expect(!FileManager.default.fileExists(atPath: workspace.path + "/new.txt"))

        profile.filesystem.workspace = .rw
        chown(workspace.path, 1234, 1234)
        let rw = try runSandboxed(["/bin/sh", "-c", "echo x > new.txt"], profile: profile, workspace: workspace.path)
        #expect(rw.exitCode == 0, "\(rw.err)")
        var info = stat()
        #expect(stat(workspace.path + "/new.txt", &info) == 0)
        #expect(info.st_uid == 1234, "files written keep the workspace owner")
    }

    @Test(
        .needsCorpus("seccomp/docker-default.json"))
    func dockerDefaultSeccompProfileRunsAShell() throws {
        let path = Paths.corpora + "/seccomp/docker-default.json"
        var profile = Profile.minimal
        profile.seccomp = .oci(path: path)
        let result = try runSandboxed(["/bin/sh", "-c", "echo shell; grep ^Seccomp: /proc/self/status"], profile: profile)
        #expect(result.out == "shell\nSeccomp:\t2\n")
        #expect(result.exitCode == 0)
    }

    @Test func badOCIProfilesAreClearErrors() throws {
        let directory = TemporaryDirectory()
        directory.write(
            "bad.json", "{\"defaultAction\": \"SCMP_ACT_ALLOW\", \"syscalls\": [{\"names\": [\"ptrace\"], \"action\": \"SCMP_ACT_MAYBE\"}]}"
        )
        directory.write("broken.json", "{not json")
        for name in ["bad.json", "broken.json", "missing.json"] {
            let path = directory.path + "/" + name
            let error = #expect(throws: SentinelError.self) { try SeccompProgram.oci(path: path) }
            #expect(error?.message.hasPrefix(path + ":") == true, "\(error?.message ?? "")")
        }
        var profile = Profile.minimal
        profile.seccomp = .oci(path: directory.path + "/bad.json")
        let launch = #expect(throws: SentinelError.self) { try runSandboxed(["/bin/true"], profile: profile) }
        #expect(launch?.message == directory.path + "/bad.json: unsupported seccomp action SCMP_ACT_MAYBE")
    }

    /// A profile's own OCI seccomp file is loaded into the payload: the calls it names fail with
    /// its errno, the rest run, and a rule gated on a capability stays out.
    @Test func anOCIProfileDeniesWithItsErrno() throws {
        let directory = TemporaryDirectory()
        directory.write(
            "deny-mkdir.json",
            """
            {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [
              {"names": ["mkdir", "mkdirat"], "action": "SCMP_ACT_ERRNO", "errnoRet": 71},
              {"names": ["uname"], "action": "SCMP_ACT_ERRNO", "includes": {"caps": ["CAP_SYS_ADMIN"]}}
            ]}
            """)
        var profile = Profile.minimal
        profile.seccomp = .oci(path: directory.path + "/deny-mkdir.json")
        let result = try runSandboxed(
            ["/bin/sh", "-c", "mkdir /tmp/d; echo mkdir=$?; uname -s; grep ^Seccomp: /proc/self/status"], profile: profile)
        #expect(result.out == "mkdir=1\nLinux\nSeccomp:\t2\n", "\(result.err)")
        #expect(result.err.contains("Protocol error"), "EPROTO (71): \(result.err)")
    }

    /// On cgroup v1 the init moves itself into every group of its run (`tasks`, "0": no global
    /// migration lock); the payload it forks afterwards is there too. The payload waits for the
    /// test to have looked (a byte in a workspace file, which exists from the start: the workspace
    /// is an overlay, where a name created later may stay unseen), so a loaded machine cannot end
    /// it first.
    @Test(.enabled(if: TestHost.cgroupV1, "cgroup v1 host"))
    func theInitAndPayloadAreInEveryGroupOfTheRun() throws {
        let label = "members" + String(UInt32.random(in: 0...UInt32.max))
        let workspace = TemporaryDirectory("members")
        workspace.write("go", "")
        let outcome = Mutex<Result<RunResult, any Error>?>(nil)
        let waitForGo = "while [ ! -s /workspace/go ]; do sleep 0.01; done"
        let workspacePath = workspace.path
        let thread = try #require(
            PosixThread.spawn(joinable: true) {
                let result = Result {
                    try runSandboxed(["/bin/sh", "-c", waitForGo], workspace: workspacePath, timeout: 120, cgroupLabel: label)
                }
                outcome.withLock { $0 = result }
            })
        let controllers = ["memory", "pids", "cpuacct"]
        // Groups are made under the test process's own group in each controller.
        let hierarchy = try #require(Cgroups.detect() as? CgroupV1)
        var members: [String: [String]] = [:]
        let deadline = MonotonicClock.nanoseconds() + 120_000_000_000
        while MonotonicClock.nanoseconds() < deadline {
            for controller in controllers {
                let root = hierarchy.base(controller)
                let group = (try? FileManager.default.contentsOfDirectory(atPath: root))?.first { $0.hasSuffix("-" + label) }
                let text = group.flatMap { try? String(contentsOfFile: "\(root)/\($0)/cgroup.procs", encoding: .utf8) }
                members[controller] = text.map { $0.split(separator: "\n").map(String.init) }
            }
            if controllers.allSatisfy({ members[$0]?.count == 2 }) { break }
            usleep(10_000)
        }
        let go = open(workspace.path + "/go", O_WRONLY | O_APPEND | O_CLOEXEC)
        #expect(go >= 0 && write(go, "1", 1) == 1)
        close(go)
        pthread_join(thread, nil)
        let result = try #require(outcome.withLock { $0 }).get()
        #expect(result.exitCode == 0, "\(result.err)")
        for controller in controllers {
            #expect(members[controller]?.count == 2, "\(controller): \(members[controller] ?? [])")
        }
    }

    @Test func concurrentRunsLeaveNoCgroupsBehind() async throws {
        // Other suites create groups in this process at the same time: label ours.
        let label = "concurrency" + String(UInt32.random(in: 0...UInt32.max))
        try await withThrowingTaskGroup(of: Int32.self) { group in
            for index in 0..<20 {
                group.addTask {
                    try runSandboxed(["/bin/sh", "-c", "exit \(index % 5)"], cgroupLabel: label).exitCode
                }
            }
            var codes: [Int32] = []
            for try await code in group { codes.append(code) }
            #expect(codes.sorted() == (0..<20).map { Int32($0 % 5) }.sorted())
        }
        let left = (Cgroups.detect()?.groups(withPrefix: Cgroups.prefix) ?? []).filter { $0.hasSuffix("-" + label) }
        #expect(left.isEmpty, "\(left)")
    }
}
