import Findings
import Foundation
import Testing
import TestSupport

@testable import Scan

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26: directory depth is attacker-controlled. The walk keeps its own stack, and a
/// directory past the bound is reported as skipped with the reason, not walked or dropped.
@Suite struct FileWalkerDepthTests {
    @Test func aDirectoryPastTheDepthBoundIsReportedSkipped() throws {
        let depth = FileWalker.maxDepth + 20
        let chain = try DeepDirectoryChain(depth: depth)
        defer { chain.remove() }
        let root = chain.root
        let selection = FileWalker().select(targets: [root], root: root)
        #expect(selection.files == ["top.py"])
        let deepest = Array(repeating: "d", count: FileWalker.maxDepth + 1).joined(separator: "/") + "/"
        #expect(
            selection.skipped == [
                SkippedFile(
                    file: deepest, reason: "nested deeper than \(FileWalker.maxDepth) directories (not walked)")
            ])
    }

    @Test func filesAtTheDepthBoundAreListed() throws {
        let chain = try DeepDirectoryChain(depth: FileWalker.maxDepth)
        defer { chain.remove() }
        let root = chain.root
        let selection = FileWalker().select(targets: [root], root: root)
        let deep = Array(repeating: "d", count: FileWalker.maxDepth).joined(separator: "/") + "/deep.py"
        #expect(selection.files == [deep, "top.py"])
        #expect(selection.skipped.isEmpty)
    }

    @Test func aTwelveThousandLevelChainIsWalkedWithoutCrashing() throws {
        let chain = try DeepDirectoryChain(depth: 12_000)
        defer { chain.remove() }
        let root = chain.root
        let selection = FileWalker().select(targets: [root], root: root)
        #expect(selection.files == ["top.py"])
        #expect(selection.skipped.count == 1)
    }
}
