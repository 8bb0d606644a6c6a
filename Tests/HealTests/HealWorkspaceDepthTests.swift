import Foundation
import Support
import Testing
import TestSupport

@testable import Heal

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26: a repository's directory depth is its owner's to choose. The heal snapshot is
/// copied on an explicit stack, and a directory past `HealWorkspace.maxDepth` is left out and
/// reported, never a crash or a failed heal.
@Suite struct HealWorkspaceDepthTests {
    @Test func aTwelveThousandLevelChainIsCopiedToTheBoundAndTheRestReported() throws {
        let chain = try DeepDirectoryChain(depth: 12_000)
        defer { chain.remove() }
        let repository = chain.root
        let workspace = try HealWorkspace(repository: repository)
        #expect(workspace.files == ["top.py"])
        let deepest = Array(repeating: "d", count: HealWorkspace.maxDepth + 1).joined(separator: "/") + "/"
        #expect(workspace.tooDeep == [deepest])
        // A candidate tree is made from the snapshot without recursing either.
        let tree = try workspace.tree(applying: [])
        #expect(FileManager.default.fileExists(atPath: tree + "/top.py"))
        workspace.remove(tree)
    }

    @Test func filesAtTheDepthBoundAreCopied() throws {
        let chain = try DeepDirectoryChain(depth: HealWorkspace.maxDepth)
        defer { chain.remove() }
        let repository = chain.root
        let workspace = try HealWorkspace(repository: repository)
        let deep = Array(repeating: "d", count: HealWorkspace.maxDepth).joined(separator: "/") + "/deep.py"
        #expect(workspace.files == [deep, "top.py"])
        #expect(workspace.tooDeep.isEmpty)
    }

    /// Issue 54, finding 21: a heal's snapshot lives in the state's private `tmp`, which may lie
    /// inside the repository (a state directory below the project); it is never copied into itself.
    @Test func aSnapshotInsideItsOwnRepositoryLeavesItsBaseOut() throws {
        let repository = NSTemporaryDirectory() + "heal-base-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: repository, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        try "x = 1\n".write(toFile: repository + "/app.py", atomically: false, encoding: .utf8)
        let base = try ScratchDirectory.privateBase(repository + "/state/tmp")
        let workspace = try HealWorkspace(repository: repository, in: base)
        #expect(workspace.root.hasPrefix(base + "/sentinel-heal-"))
        #expect(workspace.files == ["app.py"])
        #expect(FileManager.default.fileExists(atPath: workspace.snapshot + "/state"))
        #expect(!FileManager.default.fileExists(atPath: workspace.snapshot + "/state/tmp"))
    }
}
