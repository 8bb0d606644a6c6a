import Support
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// The sandbox's failures as `SentinelError`s: Docker's statuses (DESIGN §3) and messages that
/// name the stage, the object and the errno.
@Suite struct SandboxErrorTests {
    @Test func setupFailureIs125AndNamesTheStage() {
        let error = SentinelError.sandboxSetup(stage: "pivot_root", errno: Errno(rawValue: EPERM), detail: "/run/x")
        #expect(error.exitStatus == 125)
        #expect(error.stage == "pivot_root")
        #expect(error.message == "sandbox setup failed at pivot_root (/run/x): Operation not permitted")
        #expect(SentinelError.sandboxSetup(stage: "limits", errno: nil).message == "sandbox setup failed at limits")
    }

    @Test(arguments: [(ENOENT, 127), (EACCES, 126), (ENOEXEC, 126)] as [(Int32, Int32)])
    func execFailureIs127WhenNotFoundElse126(errno: Int32, status: Int32) {
        let error = SentinelError.commandFailed(errno: Errno(rawValue: errno), detail: "tool")
        #expect(error.exitStatus == status)
        #expect(error.stage == "execve")
        #expect(error.message == "cannot execute command: execve (tool): \(Errno(rawValue: errno).message)")
    }

    @Test func workspaceCommitFailureIs125() {
        let error = SentinelError.workspaceCommit(stage: "renameat", errno: nil, detail: "a/b: changed")
        #expect(error.exitStatus == 125)
        #expect(error.message == "workspace commit failed at renameat (a/b: changed)")
    }
}
