import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The test machinery itself: verdict parsing and the runner's deadline. These run anywhere,
/// root or not, so a broken harness shows up even where the battery is skipped.
@Suite struct HarnessTests {
    @Test func parsesDeniedLinesAmidOtherOutput() throws {
        let output = try #require(ProbeOutput("sentinel: starting\nDENIED mount EPERM\n"))
        #expect(output.kind == .denied)
        #expect(output.verb == "mount")
        #expect(output.denial == "EPERM")
    }

    @Test func parsesInfoFields() throws {
        let output = try #require(ProbeOutput("INFO caps CapEff=0000000000000000 NoNewPrivs=1 Seccomp=2"))
        #expect(output.kind == .info)
        #expect(output.denial == nil)
        #expect(output.fields == ["CapEff": "0000000000000000", "NoNewPrivs": "1", "Seccomp": "2"])
    }

    @Test(arguments: ["", "hello world", "DENIED", "denied mount EPERM", "ESCAPEDmount x"])
    func rejectsNonVerdicts(text: String) {
        #expect(ProbeOutput(text) == nil)
    }

    @Test func runnerCapturesStatusAndStreams() throws {
        let result = try CommandRunner.run("/bin/sh", ["-c", "echo out; echo err >&2; exit 3"], timeout: 10)
        #expect(result.status == 3 && !result.signaled && !result.timedOut)
        #expect(result.stdout == "out\n")
        #expect(result.stderr == "err\n")
    }

    @Test func runnerKillsAtTheDeadline() throws {
        let result = try CommandRunner.run("/bin/sleep", ["300"], timeout: 0.3)
        #expect(result.timedOut)
        #expect(result.signaled && result.status == SIGKILL)
        #expect(result.wallSeconds >= 0.3 && result.wallSeconds < 60)  // 200x headroom, far below 300 s
    }

    /// A background grandchild keeping inherited descriptors open must not make the runner
    /// wait for it (Foundation's `Process` does; that is why the runner does not use it).
    @Test func runnerReturnsWhenTheChildExitsEvenIfAGrandchildLives() throws {
        // A unique duration names the grandchild so that the test can find and end it.
        // It outlives the runner's timeout, so a runner that waited for it would report a timeout.
        let duration = "120.\(UInt32.random(in: 100_000...999_999))"
        let result = try CommandRunner.run("/bin/sh", ["-c", "sleep \(duration) & exit 0"], timeout: 60)
        // On a loaded machine the forked shell may not have exec'd `sleep` yet: look for a while.
        var grandchildren = TestHost.processes().filter { $0.commandLine == "sleep \(duration) " }
        let deadline = Date().addingTimeInterval(30)
        while grandchildren.isEmpty && Date() < deadline {
            usleep(50_000)
            grandchildren = TestHost.processes().filter { $0.commandLine == "sleep \(duration) " }
        }
        for process in grandchildren { kill(process.pid, SIGKILL) }
        #expect(!grandchildren.isEmpty, "the grandchild should still have been running")
        #expect(result.status == 0 && !result.timedOut)
        #expect(result.wallSeconds < 60)
    }

    @Test func runnerRunsInTheGivenDirectory() throws {
        let result = try CommandRunner.run("/bin/pwd", [], currentDirectory: "/usr", timeout: 10)
        #expect(result.stdout == "/usr\n")
    }
}
