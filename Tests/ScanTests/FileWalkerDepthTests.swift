import Findings
import Foundation
import Testing

@testable import Scan

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 26: directory depth is attacker-controlled. The walk keeps its own stack, and a
/// directory past the bound is reported as skipped with the reason, not walked or dropped.
@Suite struct FileWalkerDepthTests {
    /// A fresh root holding `top.py` and a chain of `depth` directories named `d`, the deepest
    /// holding `deep.py`. Made through directory descriptors: the chain outgrows PATH_MAX.
    static func chain(depth: Int) throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-depth-\(UUID().uuidString)"
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

    /// `rm -rf`, which removes trees of any depth through descriptors.
    static func remove(_ root: String) {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", root]).waitUntilExit()
    }

    @Test func aDirectoryPastTheDepthBoundIsReportedSkipped() throws {
        let depth = FileWalker.maxDepth + 20
        let root = try Self.chain(depth: depth)
        defer { Self.remove(root) }
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
        let root = try Self.chain(depth: FileWalker.maxDepth)
        defer { Self.remove(root) }
        let selection = FileWalker().select(targets: [root], root: root)
        let deep = Array(repeating: "d", count: FileWalker.maxDepth).joined(separator: "/") + "/deep.py"
        #expect(selection.files == [deep, "top.py"])
        #expect(selection.skipped.isEmpty)
    }

    @Test func aTwelveThousandLevelChainIsWalkedWithoutCrashing() throws {
        let root = try Self.chain(depth: 12_000)
        defer { Self.remove(root) }
        let selection = FileWalker().select(targets: [root], root: root)
        #expect(selection.files == ["top.py"])
        #expect(selection.skipped.count == 1)
    }
}
