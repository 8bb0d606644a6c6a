import Foundation
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
}
