import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One probe invocation, named by its command line in test output.
struct ProbeCall: Sendable, CustomTestStringConvertible {
    let arguments: [String]
    init(_ arguments: String...) { self.arguments = arguments }
    var testDescription: String { arguments.joined(separator: " ") }
}

/// Runs the probe directly on the host (no sandbox).
func runProbeOnHost(
    _ arguments: [String], environment: [String: String]? = nil, in directory: String? = nil
) throws -> (CommandResult, ProbeOutput?) {
    let result = try CommandRunner.run(
        PackagePaths.probe, arguments, environment: environment, currentDirectory: directory, timeout: 20)
    return (result, ProbeOutput(result.stdout))
}

/// Proves the attempts are real: unconfined root on the host must get through every one of
/// them, or a battery of DENIED lines would prove nothing. Only verbs that leave the host as
/// it was are run here; the others must refuse to run outside a user namespace.
@Suite(.enabled(if: TestHost.isRoot, "the attempts need root's privileges to succeed unconfined"))
struct ProbeSelfTests {
    static let hostEscapes: [ProbeCall] = [
        ProbeCall("write-outside"),
        ProbeCall("read-file", "/etc/shadow"),
        ProbeCall("mknod"),
        ProbeCall("create-setuid"),
        ProbeCall("chroot", "/tmp"),
        ProbeCall("open-by-handle-at"),
        ProbeCall("dev-access"),  // /dev/kmsg at least, on any Linux host
        ProbeCall("sys-access"),
        ProbeCall("fsopen"),
        ProbeCall("open-tree"),
        ProbeCall("unshare-userns"),
        ProbeCall("unshare-netns"),
        ProbeCall("unshare-mntns"),
        ProbeCall("clone3"),
        ProbeCall("clone3-newuser"),
        ProbeCall("clone-newns"),
        ProbeCall("bpf"),
        ProbeCall("perf-event-open"),
        ProbeCall("userfaultfd"),
        ProbeCall("keyctl"),
        ProbeCall("add-key"),
        ProbeCall("request-key"),
        ProbeCall("io-uring-setup"),
        ProbeCall("personality"),
        ProbeCall("syslog"),
        ProbeCall("int80"),
        ProbeCall("setuid0"),
        ProbeCall("setgid0"),
        ProbeCall("setgroups"),
        ProbeCall("capset"),
        ProbeCall("securebits"),
        ProbeCall("ptrace-sibling"),
        ProbeCall("ptrace-traceme"),
        ProbeCall("process-vm-readv"),
        ProbeCall("proc-mem-sibling"),
        ProbeCall("socket-family", "xdp"),
        ProbeCall("socket-family", "inet6-raw"),
        ProbeCall("socket-family", "inet-packet"),
        ProbeCall("socket-family", "packet"),
        ProbeCall("socket-family", "netlink"),
        ProbeCall("raw-socket"),
        ProbeCall("packet-socket"),
        ProbeCall("netlink-socket"),
        ProbeCall("nice"),
        ProbeCall("dns", "localhost"),
        ProbeCall("pwrite-output"),  // the runner's stdout and stderr are host files
        ProbeCall("truncate-output"),
    ]

    @Test("unconfined root gets through", arguments: hostEscapes)
    func escapesOnHost(call: ProbeCall) throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-host")
        defer { scratch.remove() }
        let (result, output) = try runProbeOnHost(call.arguments, in: scratch.path)
        #expect(output?.kind == .escaped, "\(result.summary)")
        #expect(output?.verb == call.arguments[0])
        #expect(result.status == 1 && !result.signaled, "\(result.summary)")
    }

    @Test(.enabled(if: TestHost.hasVsock, "AF_VSOCK is a module this kernel may lack"))
    func vsockSocketOnHost() throws {
        let (result, output) = try runProbeOnHost(["vsock-socket"])
        #expect(output?.kind == .escaped, "\(result.summary)")
    }

    /// The newer syscalls and protocols the seccomp attempts use exist on this kernel, so the
    /// sandbox's DENIED lines for them come from the filter, not from their absence.
    @Test(
        .enabled(if: TestHost.kernelAtLeast(6, 17), "file_getattr needs Linux 6.17"),
        arguments: [
            ProbeCall("newer-syscall", "open_tree_attr"), ProbeCall("newer-syscall", "file_getattr"),
            ProbeCall("newer-syscall", "set_mempolicy_home_node"),
        ])
    func newerSyscallOnHost(call: ProbeCall) throws {
        let (result, output) = try runProbeOnHost(call.arguments)
        #expect(output?.kind == .escaped, "\(result.summary)")
    }

    @Test(
        .enabled(if: TestHost.hasProtocols(["MPTCP", "UDP-Lite"]), "MPTCP and UDP-Lite are options this kernel may lack"),
        arguments: [ProbeCall("socket-family", "mptcp"), ProbeCall("socket-family", "udplite")])
    func newerProtocolOnHost(call: ProbeCall) throws {
        let (result, output) = try runProbeOnHost(call.arguments)
        #expect(output?.kind == .escaped, "\(result.summary)")
    }

    /// Verbs that change the host (or exhaust it) refuse to run in the initial user namespace,
    /// so a launcher that silently failed to confine cannot reboot or fill the test machine.
    static let sandboxOnly: [ProbeCall] = [
        ProbeCall("mount"), ProbeCall("mount-proc"), ProbeCall("mount-cgroup"), ProbeCall("remount-rw"),
        ProbeCall("umount"), ProbeCall("pivot-root"), ProbeCall("init-module"), ProbeCall("finit-module"),
        ProbeCall("kexec-load"), ProbeCall("kexec-file-load"), ProbeCall("reboot"), ProbeCall("swapon"),
        ProbeCall("acct"), ProbeCall("sethostname"), ProbeCall("setdomainname"), ProbeCall("clock-settime"),
        ProbeCall("iopl"), ProbeCall("vhangup"), ProbeCall("tiocsti"), ProbeCall("tioclinux"),
        ProbeCall("proc-sys-write"),
        ProbeCall("sysrq-trigger"), ProbeCall("kill-init"), ProbeCall("fork-bomb"),
        ProbeCall("memory-bomb", "64"), ProbeCall("disk-fill", "/tmp"), ProbeCall("spin"),
        ProbeCall("daemon", "/tmp/sentinel-probe-never-written"),
        ProbeCall("tcp-queue", "1"), ProbeCall("inotify-exhaust"), ProbeCall("inotify-watches", "/usr"),
        ProbeCall("pipe-pages", "1"), ProbeCall("occupy", "0", "0", "/tmp/sentinel-probe-never-held"),
        ProbeCall("tcp-pin", "1", "1", "1"), ProbeCall("tcp-backlog", "1", "1", "1"), ProbeCall("aio-quota"),
    ]

    @Test("host-changing verbs refuse outside a sandbox", arguments: sandboxOnly)
    func refusesOnHost(call: ProbeCall) throws {
        let (result, output) = try runProbeOnHost(call.arguments)
        #expect(output == ProbeOutput("REFUSED \(call.arguments[0]) initial-user-namespace"), "\(result.summary)")
        #expect(result.status == 3, "\(result.summary)")
    }

    /// Unconfined, the FIFO and lease attempts reach a host FIFO's reader and a host file.
    @Test func fifoWriteAndLeaseReachHostFiles() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-host")
        defer { scratch.remove() }
        #expect(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        let reader = open(scratch.path + "/fifo", O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        defer { close(reader) }
        let (written, wrote) = try runProbeOnHost(["fifo-write", scratch.path + "/fifo"])
        #expect(wrote?.kind == .escaped, "\(written.summary)")
        try "data\n".write(toFile: scratch.path + "/file", atomically: false, encoding: .utf8)
        let (leased, lease) = try runProbeOnHost(["lease", scratch.path + "/file"])
        #expect(lease == ProbeOutput("INFO lease held=1"), "\(leased.summary)")
    }

    /// The harness copies the Swift runtime next to the probe; it must find it.
    @Test func swiftRuntimeIsFound() throws {
        let runtime = try #require(PackagePaths.swiftRuntime)
        #expect(FileManager.default.fileExists(atPath: runtime), "\(runtime)")
    }

    /// The daemon test scans host command lines for survivors; the scan must see a live process.
    @Test func commandLineScanSeesALiveProcess() throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["29.123"]
        try sleeper.run()
        defer {
            kill(sleeper.processIdentifier, SIGKILL)  // SIGTERM may arrive blocked
            sleeper.waitUntilExit()
        }
        // The child may not have exec'd yet when run() returns: poll (up to 30 s on a loaded machine).
        var seen = false
        for _ in 0..<1500 where !seen {
            seen = TestHost.commandLines().contains { $0.contains("sleep 29.123") }
            if !seen { usleep(20_000) }
        }
        #expect(seen)
    }

    /// Our own running binary cannot be opened for writing: ETXTBSY proves the attempt reached
    /// the file (the sandbox must stop it earlier, at EACCES/ENOENT, for other processes' binaries).
    @Test func procExeWriteReachesTheBinary() throws {
        let (result, output) = try runProbeOnHost(["proc-exe-write", "0"])
        #expect(output == ProbeOutput("DENIED proc-exe-write ETXTBSY"), "\(result.summary)")
    }

    /// Unconfined, stdin redirected from a file is that file's description: the seek lands.
    @Test func lseekStdinMovesAHostFile() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-host")
        defer { scratch.remove() }
        try "line\n".write(toFile: scratch.path + "/input", atomically: true, encoding: .utf8)
        let result = try CommandRunner.run(
            "/bin/sh", ["-c", "exec \"$0\" lseek-stdin < \"$1\"", PackagePaths.probe, scratch.path + "/input"],
            timeout: 20)
        #expect(ProbeOutput(result.stdout) == ProbeOutput("ESCAPED lseek-stdin offset=5"), "\(result.summary)")
    }

    @Test func listDirSeesTheHostRoot() throws {
        let (result, output) = try runProbeOnHost(["list-dir", "/"])
        let entries = output?.fields["entries"]?.split(separator: ",").map(String.init) ?? []
        #expect(entries.contains("usr") && entries.contains("proc"), "\(result.summary)")
    }

    /// The CPU figure `burn-cpu` reports is what it used, at least what it was asked to burn.
    @Test func burnCpuReportsItsOwnCPUTime() throws {
        let (result, output) = try runProbeOnHost(["burn-cpu", "50"])
        #expect(output?.kind == .info, "\(result.summary)")
        #expect((output?.fields["cpu_ms"].flatMap { Int($0) } ?? 0) >= 50, "\(result.summary)")
    }

    @Test func capsShowRootPrivileges() throws {
        let (result, output) = try runProbeOnHost(["caps"])
        let fields = try #require(output?.fields, "\(result.summary)")
        #expect(output?.kind == .info)
        #expect(fields["CapEff"].flatMap { UInt64($0, radix: 16) } ?? 0 != 0, "\(result.summary)")
        #expect(fields["CapBnd"].flatMap { UInt64($0, radix: 16) } ?? 0 != 0)
        #expect(fields["NoNewPrivs"] == "0")
        #expect(fields["Seccomp"] == "0")
    }

    @Test func euidIsRoot() throws {
        let (result, output) = try runProbeOnHost(["euid"])
        #expect(output?.kind == .info)
        #expect(output?.fields["euid"] == "0", "\(result.summary)")
        #expect(output?.fields["uid"] == "0")
    }

    @Test func envSecretVisibleWhenSetAndNotOtherwise() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["AWS_SECRET_ACCESS_KEY"] = "probe-test-secret"
        environment["GITHUB_TOKEN"] = nil
        let (_, seen) = try runProbeOnHost(
            ["env-secret", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"], environment: environment)
        #expect(seen == ProbeOutput("ESCAPED env-secret visible=AWS_SECRET_ACCESS_KEY"))
        environment["AWS_SECRET_ACCESS_KEY"] = nil
        let (_, unseen) = try runProbeOnHost(
            ["env-secret", "AWS_SECRET_ACCESS_KEY", "GITHUB_TOKEN"], environment: environment)
        #expect(unseen == ProbeOutput("DENIED env-secret ENOENT"))
    }

    @Test func connectTcpReachesAHostListener() throws {
        let listener = try HostSocket.tcpListener()
        defer { listener.close() }
        let (result, output) = try runProbeOnHost(["connect-tcp", "127.0.0.1", String(listener.port)])
        #expect(output?.kind == .escaped, "\(result.summary)")
        #expect(listener.receivedSomething(within: 1))
    }

    @Test func connectTcpToAClosedPortIsRefused() throws {
        // Bind then close: the port is known to be free, nothing listens on it.
        let listener = try HostSocket.tcpListener()
        let port = listener.port
        listener.close()
        let (result, output) = try runProbeOnHost(["connect-tcp", "127.0.0.1", String(port)])
        #expect(output?.denial == "ECONNREFUSED", "\(result.summary)")
    }

    @Test func udpSendReachesAHostReceiver() throws {
        let receiver = try HostSocket.udpReceiver()
        defer { receiver.close() }
        let (result, output) = try runProbeOnHost(["udp-send", "127.0.0.1", String(receiver.port)])
        #expect(output == ProbeOutput("ESCAPED udp-send sent=14"), "\(result.summary)")
        #expect(receiver.receivedSomething(within: 1))
    }

    @Test func connectAbstractReachesAHostListener() throws {
        let name = "sentinel-probe-selftest-\(getpid())"
        let listener = try HostSocket.abstractListener(name: name)
        defer { listener.close() }
        let (result, output) = try runProbeOnHost(["connect-abstract", name])
        #expect(output == ProbeOutput("ESCAPED connect-abstract connected=@\(name)"), "\(result.summary)")
    }

    @Test func connectUnixReachesAHostSocket() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-unix")
        defer { scratch.remove() }
        let listener = try HostSocket.unixListener(path: scratch.path + "/s")
        defer { listener.close() }
        let (result, output) = try runProbeOnHost(["connect-unix", scratch.path + "/s"])
        #expect(output?.kind == .escaped, "\(result.summary)")
    }

    /// A sibling process to join, signal and count: a `sleep` the test starts and ends.
    private func withSleeper(_ body: (Int32) throws -> Void) throws {
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer {
            kill(sleeper.processIdentifier, SIGKILL)  // SIGTERM may arrive blocked
            sleeper.waitUntilExit()
        }
        try body(sleeper.processIdentifier)
    }

    @Test func setnsJoinsASiblingsNamespace() throws {
        try withSleeper { pid in
            let (result, output) = try runProbeOnHost(["setns", "/proc/\(pid)/ns/net"])
            #expect(output?.kind == .escaped, "\(result.summary)")
            let (viaPidfd, pidfdOutput) = try runProbeOnHost(["setns-via-pidfd", String(pid)])
            #expect(pidfdOutput?.kind == .escaped, "\(viaPidfd.summary)")
        }
    }

    @Test func killPidSignalsASiblingAndNotAMissingPid() throws {
        try withSleeper { pid in
            let (result, output) = try runProbeOnHost(["kill-pid", String(pid)])
            #expect(output == ProbeOutput("ESCAPED kill-pid signalable=\(pid)"), "\(result.summary)")
        }
        // Above the largest pid_max the kernel allows, so no such process can exist.
        let (_, missing) = try runProbeOnHost(["kill-pid", "1073741824"])
        #expect(missing == ProbeOutput("DENIED kill-pid ESRCH"))
    }

    @Test func psSeesTheHostsProcesses() throws {
        let (result, output) = try runProbeOnHost(["ps"])
        let count = try #require(output?.fields["pids"].flatMap { Int($0) }, "\(result.summary)")
        #expect(count >= 5)
    }

    @Test func nsIdsAreOurOwn() throws {
        let (result, output) = try runProbeOnHost(["ns-ids"])
        for kind in ["user", "pid", "net", "mnt", "uts", "ipc", "cgroup"] {
            #expect(output?.fields[kind] == TestHost.namespaceID(kind), "\(kind): \(result.summary)")
        }
    }

    /// The values the battery checks inside are the ones this namespace sees on the host.
    @Test func userLimitsReadsProcSysUser() throws {
        let (result, output) = try runProbeOnHost(["user-limits"])
        for name in ["max_inotify_instances", "max_user_namespaces"] {
            let host = TestHost.readProcFile("/proc/sys/user/" + name)?.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(host != nil && output?.fields[name] == host, "\(name): \(result.summary)")
        }
    }

    /// The network values the battery checks inside are the ones this namespace sees on the host.
    @Test func netLimitsReadsTheNamespace() throws {
        let (result, output) = try runProbeOnHost(["net-limits"])
        let somaxconn = TestHost.readProcFile("/proc/sys/net/core/somaxconn")?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(somaxconn != nil && output?.fields["somaxconn"] == somaxconn, "\(result.summary)")
        #expect(output?.fields["lo_mtu"].flatMap { Int($0) }.map { $0 > 0 } == true, "\(result.summary)")
    }

    /// The host check of the AIO attempt: one context, released at once.
    @Test func aioContextWorksOnHost() throws {
        let (result, output) = try runProbeOnHost(["aio-context"])
        #expect(output?.kind == .info, "\(result.summary)")
    }

    @Test func ifacesListsLoopback() throws {
        let (result, output) = try runProbeOnHost(["ifaces"])
        let names = output?.fields["names"]?.split(separator: ",").map(String.init) ?? []
        #expect(names.contains("lo"), "\(result.summary)")
    }

    @Test func fdsSeesAnInheritedDescriptor() throws {
        let (result, output) = try CommandRunner.run(
            "/bin/sh", ["-c", "exec 7</etc/hostname; exec \"$0\" fds", PackagePaths.probe], timeout: 20
        ).withOutput()
        #expect(output?.kind == .escaped, "\(result.summary)")
        #expect(output?.detail.contains("7:/etc/hostname") == true, "\(result.summary)")
    }

    @Test func symlinkAndHardlinkReachTheirTargets() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-links")
        defer { scratch.remove() }
        let secret = scratch.path + "/secret"
        try "s3cr3t\n".write(toFile: secret, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: secret)
        let (symlinkRun, followed) = try runProbeOnHost(["follow-symlink", scratch.path + "/link"])
        #expect(followed?.kind == .escaped, "\(symlinkRun.summary)")
        let (hardlinkRun, linked) = try runProbeOnHost(["hardlink", secret, scratch.path + "/hard"])
        #expect(linked?.kind == .escaped, "\(hardlinkRun.summary)")
        // A regular file is not a symlink: the verb says so instead of pretending.
        let (notLink, _) = try runProbeOnHost(["follow-symlink", secret])
        #expect(notLink.status == 2)
    }

    @Test func chmodSetuidOnARootOwnedFile() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-suid")
        defer { scratch.remove() }
        let (result, output) = try runProbeOnHost(["chmod-setuid"], in: scratch.path)
        #expect(output?.kind == .escaped, "\(result.summary)")
    }

    @Test func writeWorkspaceWritesTheWorkingDirectory() throws {
        let scratch = try TemporaryDirectory(prefix: "sentinel-probe-ws")
        defer { scratch.remove() }
        let (result, output) = try runProbeOnHost(["write-workspace"], in: scratch.path)
        #expect(output?.kind == .escaped, "\(result.summary)")
        // The probe cleans up after itself.
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch.path))?.isEmpty == true)
    }

    @Test(arguments: [
        ProbeCall(), ProbeCall("no-such-verb"), ProbeCall("read-file"), ProbeCall("kill-pid", "abc"),
        ProbeCall("connect-tcp", "not-an-address", "80"), ProbeCall("memory-bomb"),
        ProbeCall("kill-pid", "99999999999"), ProbeCall("socket-family", "nope"),
    ])
    func usageErrorsExitTwo(call: ProbeCall) throws {
        let (result, output) = try runProbeOnHost(call.arguments)
        #expect(result.status == 2, "\(result.summary)")
        #expect(output == nil)
        #expect(!result.stderr.isEmpty)
    }
}

extension CommandResult {
    /// Pairs a result with its parsed verdict line.
    func withOutput() -> (CommandResult, ProbeOutput?) { (self, ProbeOutput(stdout)) }
}
