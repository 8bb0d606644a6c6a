import Foundation
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Kernel memory and per-user quotas that neither the memory counter nor an rlimit sees:
    /// socket buffers, inotify instances and watches (charged to the launcher's host uid), and
    /// the per-user-namespace limits.
    @Suite struct KernelQuotas {
        /// The defaults of the shipped profiles (`Profile.Limits`).
        static let inotifyInstances = 16
        static let inotifyWatches = 8192

        /// Loopback TCP buffers are kernel memory outside the memory counter unless the group
        /// has a TCP limit. The probe stops at 512 MiB, so a failing run cannot hurt the host.
        @Test func loopbackTCPBuffersStayUnderTheMemoryLimit() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["tcp-queue", "512"], flags: ["--memory", "64M"], timeout: 300)
                // cgroup v2 charges socket buffers to memory.max itself: the probe is OOM-killed at
                // the limit instead of being refused buffers, and the limit held either way.
                if run.status?.reason == "oom" { return }
                #expect(run.output?.kind == .info, "\(run.summary)")
                let queued = try #require(run.output?.fields["queued"].flatMap { Int64($0) }, "\(run.summary)")
                // Something was queued (the attempt ran), and well under the 64 MiB limit.
                #expect(queued > 0, "\(run.summary)")
                #expect(queued < 48 << 20, "\(run.summary)")
            }
        }

        /// inotify instances count against the launcher's uid on the host (128 by default):
        /// the sandbox stops at its own limit and host root can still create one meanwhile.
        @Test func inotifyInstancesStopAtTheSandboxLimit() throws {
            try SandboxHarness.with { harness in
                let (run, hostDuring) = try Self.whileHolding(harness, ["inotify-exhaust"])
                expectDenied(run, Attempt("inotify-exhaust", denied: "EMFILE"))
                let count = Self.amount(in: run.result.stderr, unit: "instances")
                #expect(count.map { $0 >= 1 && $0 <= Self.inotifyInstances } == true, "\(run.summary)")
                #expect(hostDuring == nil, "host inotify failed while the sandbox held its quota: \(hostDuring ?? "")")
            }
            #expect(TestHost.inotifyProblem() == nil, "host inotify fails after the run: \(TestHost.inotifyProblem() ?? "")")
        }

        /// Watches likewise: one per inode under /usr until the kernel refuses.
        @Test func inotifyWatchesStopAtTheSandboxLimit() throws {
            try SandboxHarness.with { harness in
                let (run, hostDuring) = try Self.whileHolding(harness, ["inotify-watches", "/usr", "250000"])
                expectDenied(run, Attempt("inotify-watches", denied: "ENOSPC"))
                let count = Self.amount(in: run.result.stderr, unit: "watches")
                #expect(count.map { $0 >= 1 && $0 <= Self.inotifyWatches } == true, "\(run.summary)")
                #expect(hostDuring == nil, "host inotify failed while the sandbox held its quota: \(hostDuring ?? "")")
            }
        }

        /// fs.aio-max-nr is one pool of AIO events for the whole host: one io_setup inside took all
        /// of it and host root's own io_setup failed with EAGAIN for the run. The AIO calls are
        /// absent inside (ENOSYS, as on a kernel without CONFIG_AIO), like io_uring.
        @Test func aioContextsAreRefused() throws {
            try SandboxHarness.with { harness in
                let (run, hostDuring) = try Self.whileHolding(harness, ["aio-quota"], hostCheck: TestHost.aioProblem)
                expectDenied(run, Attempt("aio-quota", denied: "ENOSYS"))
                #expect(hostDuring == nil, "host io_setup failed while the sandbox ran: \(hostDuring ?? "")")
            }
            #expect(TestHost.aioProblem() == nil, "host io_setup fails after the run: \(TestHost.aioProblem() ?? "")")
        }

        /// Creating namespaces is refused by seccomp; the per-namespace counts are 0 as well,
        /// and the inotify limits are the profile's.
        @Test func userNamespaceLimitsAreSetInside() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["user-limits"])
                let fields = try #require(run.output?.fields, "\(run.summary)")
                let namespaces = fields.keys.filter { $0.hasSuffix("_namespaces") }
                #expect(namespaces.count >= 7, "\(run.summary)")
                for name in namespaces { #expect(fields[name] == "0", "\(name): \(run.summary)") }
                #expect(fields["max_inotify_instances"] == String(Self.inotifyInstances), "\(run.summary)")
                #expect(fields["max_inotify_watches"] == String(Self.inotifyWatches), "\(run.summary)")
            }
        }

        /// The payload holds no capability in its namespace: it cannot raise the limits back.
        @Test func payloadCannotRaiseItsUserLimits() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["proc-sys-write", "/proc/sys/user/max_inotify_instances"])
                expectDenied(run, Attempt("proc-sys-write", denied: "EACCES", "EPERM", "EROFS"))
            }
        }

        /// A profile may raise the inotify limits within their bound.
        @Test func aProfileRaisesTheInotifyLimits() throws {
            try SandboxHarness.with { harness in
                let profile = harness.scratch.path + "/watcher.yaml"
                try "name: watcher\nlimits:\n  inotifyInstances: 40\n  inotifyWatches: 20000\n"
                    .write(toFile: profile, atomically: true, encoding: .utf8)
                let run = try harness.probe(["user-limits"], flags: ["--profile", profile])
                #expect(run.output?.fields["max_inotify_instances"] == "40", "\(run.summary)")
                #expect(run.output?.fields["max_inotify_watches"] == "20000", "\(run.summary)")
            }
        }

        /// Runs the probe with a hold file the host made in its scratch directory (bound read-only
        /// into the sandbox, so the host's unlink is seen inside), runs `hostCheck` once the probe
        /// sleeps holding its quota, then lets it go. Returns the run and the host's problem.
        static func whileHolding(
            _ harness: SandboxHarness, _ arguments: [String], flags: [String] = [],
            hostCheck: () -> String? = TestHost.inotifyProblem
        ) throws -> (SandboxRun, String?) {
            let holdDirectory = harness.scratch.path + "/hold-\(UUID().uuidString)"
            try FileManager.default.createDirectory(atPath: holdDirectory, withIntermediateDirectories: false)
            chmod(holdDirectory, 0o755)
            defer { try? FileManager.default.removeItem(atPath: holdDirectory) }
            let holdPath = holdDirectory + "/quota-held"
            try "hold\n".write(toFile: holdPath, atomically: false, encoding: .utf8)
            let outcome = Mutex<Result<SandboxRun, any Error>?>(nil)
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                let result = Result {
                    try harness.probe(arguments + [holdPath], flags: flags + ["--bind-ro", holdDirectory], timeout: 600)
                }
                outcome.withLock { $0 = result }
                finished.signal()
            }
            // Wait (generously: this is not a speed bound) for the probe to sleep on its quota.
            var hostDuring: String? = "the probe never held its quota"
            for _ in 0..<2400 {
                if Self.probeIsHolding(arguments[0]) {
                    hostDuring = hostCheck()
                    break
                }
                if outcome.withLock({ $0 != nil }) { break }
                usleep(50_000)
            }
            unlink(holdPath)
            finished.wait()
            let run = try outcome.withLock { $0 }!.get()
            return (run, hostDuring)
        }

        /// Whether a probe running `verb` sleeps in its hold loop (nanosleep/clock_nanosleep): it
        /// sleeps nowhere else, so its quota is taken.
        static func probeIsHolding(_ verb: String) -> Bool {
            TestHost.processes().contains { process in
                guard process.commandLine.hasPrefix(SandboxHarness.probeInside + " " + verb + " "),
                    let text = TestHost.readProcFile("/proc/\(process.pid)/syscall"),
                    let number = text.split(separator: " ").first.flatMap({ Int($0) })
                else { return false }
                return number == 35 || number == 230  // x86_64 nanosleep, clock_nanosleep
            }
        }

        /// `N` from the probe's `N <unit> before ...` line on stderr.
        static func amount(in stderr: String, unit: String) -> Int? {
            for line in stderr.split(separator: "\n") {
                let words = line.split(separator: " ")
                if let index = words.firstIndex(of: Substring(unit)), index > 0 { return Int(words[index - 1]) }
            }
            return nil
        }
    }
}

extension TestHost {
    /// Whether host root can still create an AIO context (the probe's harmless `aio-context`
    /// verb, run on the host); nil when it can, else the probe's answer.
    static func aioProblem() -> String? {
        guard let result = try? CommandRunner.run(PackagePaths.probe, ["aio-context"], timeout: 60) else {
            return "the probe did not run"
        }
        return ProbeOutput(result.stdout)?.kind == .info ? nil : result.summary
    }

    /// Whether this process (host root) can still create an inotify instance and a watch;
    /// nil when it can, else what failed.
    static func inotifyProblem() -> String? {
        let fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { return "inotify_init1: errno \(errno)" }
        defer { close(fd) }
        guard inotify_add_watch(fd, "/tmp", UInt32(IN_CREATE)) >= 0 else { return "inotify_add_watch: errno \(errno)" }
        return nil
    }
}
