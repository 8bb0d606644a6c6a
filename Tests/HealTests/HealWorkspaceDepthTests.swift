import Foundation
import Testing

@testable import Heal

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26: a repository's directory depth is its owner's to choose. The heal snapshot is
/// copied on an explicit stack, and a directory past `HealWorkspace.maxDepth` is left out and
/// reported, never a crash or a failed heal.
@Suite struct HealWorkspaceDepthTests {
    /// A fresh repository holding `top.py` and a chain of `depth` directories named `d`, the
    /// deepest holding `deep.py`; made through descriptors, as the chain outgrows PATH_MAX.
    static func chain(depth: Int) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-heal-depth-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        try "x = 1\n".write(toFile: root + "/top.py", atomically: false, encoding: .utf8)
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        try #require(fd >= 0)
        for _ in 0..<depth {
            try #require(mkdirat(fd, "d", 0o755) == 0)
            let next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            fd = next
            try #require(fd >= 0)
        }
        let file = openat(fd, "deep.py", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        close(file)
        close(fd)
        return root
    }

    static func remove(_ root: String) {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", root]).waitUntilExit()
    }

    @Test func aTwelveThousandLevelChainIsCopiedToTheBoundAndTheRestReported() throws {
        let repository = try Self.chain(depth: 12_000)
        defer { Self.remove(repository) }
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
        let repository = try Self.chain(depth: HealWorkspace.maxDepth)
        defer { Self.remove(repository) }
        let workspace = try HealWorkspace(repository: repository)
        let deep = Array(repeating: "d", count: HealWorkspace.maxDepth).joined(separator: "/") + "/deep.py"
        #expect(workspace.files == [deep, "top.py"])
        #expect(workspace.tooDeep.isEmpty)
    }
}
