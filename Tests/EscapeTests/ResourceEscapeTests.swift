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
                    flags: ["--rw", "--timeout", "5"], timeout: 120)
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

        static func size(of path: String) -> Int {
            var st = stat()
            return stat(path, &st) == 0 ? Int(st.st_size) : 0
        }
    }
}
