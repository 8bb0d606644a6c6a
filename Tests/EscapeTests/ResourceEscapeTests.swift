import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Exhaustion attempts: the limits hold, the run is reported, the host is unharmed.
    @Suite struct Resources {
        @Test func forkBombHitsThePidsLimit() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["fork-bomb"], flags: ["--pids", "64"], timeout: 60)
                expectDenied(run, Attempt("fork-bomb", denied: "EAGAIN"))
            }
            // The host can still start processes.
            let after = try CommandRunner.run("/bin/true", [], timeout: 10)
            #expect(after.status == 0 && !after.signaled, "\(after.summary)")
        }

        @Test func memoryBombIsOOMKilledAndReported() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["memory-bomb", "1024"], flags: ["--memory", "64M"], timeout: 60)
                #expect(run.result.status == 137 && !run.result.signaled, "\(run.summary)")
                #expect(run.status?.reason == "oom", "\(run.summary)")
                #expect(run.output?.kind != .escaped, "\(run.summary)")
            }
        }

        @Test func diskFillOfTmpHitsItsSize() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["disk-fill", "/tmp", "2048"], timeout: 120)
                expectDenied(run, Attempt("disk-fill", denied: "ENOSPC", "EFBIG"))
            }
        }

        /// An rw workspace is host disk: the file-size limit must stop the writer.
        @Test func diskFillOfAnRwWorkspaceHitsTheFileSizeLimit() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["disk-fill", "/workspace", "1024"], flags: ["--rw"], timeout: 120)
                expectDenied(run, Attempt("disk-fill", denied: "EFBIG", "ENOSPC", "EDQUOT"))
            }
        }

        @Test func infiniteLoopHitsTheTimeout() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["spin"], flags: ["--timeout", "1"], timeout: 120)
                #expect(run.result.status == 124, "\(run.summary)")
                #expect(run.status?.reason == "timeout", "\(run.summary)")
                #expect(run.result.wallSeconds >= 1 && run.result.wallSeconds < 60, "\(run.summary)")
            }
        }

        /// A double-forked, setsid'd daemon that ignores SIGTERM must die with the run.
        @Test func doubleForkedDaemonDiesAtTheTimeout() throws {
            try SandboxHarness.with { harness in
                let beat = "hb-\(UUID().uuidString.prefix(8))"
                let run = try harness.command(
                    ["/bin/sh", "-c", "./sentinel-probe daemon \(beat); sleep 300"],
                    // Room for the launch and the daemon's first beat on a loaded machine.
                    flags: ["--rw", "--timeout", "20"], timeout: 240)
                #expect(run.result.status == 124, "\(run.summary)")
                #expect(run.status?.reason == "timeout", "\(run.summary)")
                let heartbeat = harness.path + "/" + beat
                let first = Self.size(of: heartbeat)
                #expect(first > 0, "the daemon never ran, so the test proves nothing: \(run.summary)")
                usleep(500_000)
                let second = Self.size(of: heartbeat)
                #expect(first == second, "the daemon is still writing after the run ended")
                let survivors = TestHost.processes().filter { $0.commandLine.contains("daemon \(beat)") }
                #expect(survivors.isEmpty, "left running on the host: \(survivors)")
                // Clean up after a failure: an escaped daemon holds inherited descriptors and
                // would keep `swift test` waiting for end-of-file forever.
                for survivor in survivors { kill(survivor.pid, SIGKILL) }
            }
        }

        /// `cpuMs` is the whole tree's CPU time. The init's rusage (all v1 had without a `--cpus`
        /// group, and all on split cpu/cpuacct hierarchies) misses every process the kernel reaps
        /// when pid 1 ends: a worker still running when the payload exits, or the whole tree at a
        /// timeout or Ctrl-C, reported 2 ms for 2 CPU-seconds. The probe's own CPU clock is the
        /// truth; the bounds are loose (no speed is asserted).
        @Test(arguments: [false, true])
        func cpuTimeCountsTheWholeTree(workerOutlivesThePayload: Bool) throws {
            try SandboxHarness.with { harness in
                let burn = "./sentinel-probe burn-cpu 1000"
                let command =
                    workerOutlivesThePayload
                    ? ["/bin/sh", "-c", "\(burn) hold > /tmp/burn & while ! grep -q INFO /tmp/burn; do sleep 0.1; done; cat /tmp/burn"]
                    : ["/bin/sh", "-c", burn]
                let run = try harness.command(command, timeout: 300)
                let burned = try #require(run.output?.fields["cpu_ms"].flatMap { Int($0) }, "\(run.summary)")
                let reported = try #require(run.status?.cpuMs, "\(run.summary)")
                #expect(reported >= burned - 10, "cpuMs \(reported) < the \(burned) ms the payload used: \(run.summary)")
                #expect(reported <= burned + 3000, "cpuMs \(reported) far above the \(burned) ms burned: \(run.summary)")
            }
        }

        static func size(of path: String) -> Int {
            var st = stat()
            return stat(path, &st) == 0 ? Int(st.st_size) : 0
        }
    }
}
