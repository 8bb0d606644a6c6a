import Testing
@testable import Sandbox

/// `-t`: the plan mounts a devpts of the sandbox's own, and only when asked.
@Suite struct TerminalPlanTests {
    let root = "/tmp/.plan-root"

    private func ops(terminal: Bool) throws -> [FilesystemOp] {
        var request = LaunchRequest(profile: .minimal, command: ["sh"])
        request.terminal = terminal
        return try LaunchPlan.make(request, newRoot: root, hostUID: 0, hostGID: 0).filesystem
    }

    @Test func terminalMountsAPrivateDevptsBeforeDevTurnsReadOnly() throws {
        let ops = try ops(terminal: true)
        let devpts = FilesystemOp.mount(
            source: "devpts", path: root + "/dev/pts", fstype: "devpts",
            flags: [.noSuid, .noExec],
            data: "newinstance,ptmxmode=0666,mode=0620,max=\(RootBuilder.maxPTYs)",
            optional: false)
        let ptmx = FilesystemOp.symlink(target: "pts/ptmx", path: root + "/dev/ptmx")
        let mountIndex = try #require(ops.firstIndex(of: devpts))
        let linkIndex = try #require(ops.firstIndex(of: ptmx))
        let readOnly = try #require(ops.lastIndex { $0.path == root + "/dev" })
        #expect(ops.firstIndex(of: .mkdir(path: root + "/dev/pts", mode: 0o755)).map { $0 < mountIndex } == true)
        #expect(mountIndex < readOnly && linkIndex < readOnly)
    }

    @Test func withoutTerminalThereIsNoPtyDevice() throws {
        let ops = try ops(terminal: false)
        #expect(!ops.contains { $0.path.hasPrefix(root + "/dev/pt") })
    }
}
