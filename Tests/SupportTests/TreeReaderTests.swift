#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
@testable import Support

/// The CLI's one read primitive for trees it does not own: files opened relative to the tree's
/// directory descriptor, never outside it, never through a link, regular files only, bounded.
@Suite struct TreeReaderTests {
    /// A tree and, beside it, a "host" directory holding a marker the tree must never reveal.
    final class Scene {
        let base: String
        var tree: String { base + "/tree" }
        var host: String { base + "/host" }
        let marker = "HOST-MARKER-\(UUID().uuidString)"
        init() throws {
            var template = Array((NSTemporaryDirectory() + "tree-reader-XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else { throw SentinelError(.io, "mkdtemp: \(Errno.current)") }
            base = String(cString: made)
            for directory in [tree + "/sub", host] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
            try write(host + "/secret.txt", marker)
            try write(tree + "/sub/file.txt", "inside\n")
        }
        deinit { try? FileManager.default.removeItem(atPath: base) }
        func write(_ path: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: tree + "/" + name, withDestinationPath: target)
        }
    }

    /// The message of the error `body` throws, "" when it does not.
    private func refusal(_ body: () throws -> Data) -> String {
        do {
            _ = try body()
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func readsARegularFileByItsPathInTheTree() throws {
        let scene = try Scene()
        let tree = try TreeReader(path: scene.tree)
        #expect(String(decoding: try tree.read("sub/file.txt", limit: 100), as: UTF8.self) == "inside\n")
        #expect(String(decoding: try tree.read("sub/../sub/./file.txt", limit: 100), as: UTF8.self) == "inside\n")
    }

    @Test(arguments: ["../host/secret.txt", "sub/../../host/secret.txt"])
    func neverLeavesTheTreeByDotDot(path: String) throws {
        let scene = try Scene()
        let message = refusal { try TreeReader(path: scene.tree).read(path, limit: 1 << 20) }
        #expect(message == "\(path): lies outside the scanned tree (or across a mount point); not followed")
    }

    @Test func refusesAnAbsolutePath() throws {
        let scene = try Scene()
        let message = refusal { try TreeReader(path: scene.tree).read(scene.host + "/secret.txt", limit: 1 << 20) }
        #expect(message.hasSuffix("lies outside the scanned tree (or across a mount point); not followed"))
    }

    /// `e -> HOST` then `e/secret.txt`: the path text looks inside, the file is not.
    @Test(arguments: ["absolute", "relative"])
    func neverFollowsALinkOutOfTheTree(style: String) throws {
        let scene = try Scene()
        try scene.link("e", to: style == "absolute" ? scene.host : "../host")
        try scene.link("secret.txt", to: scene.host + "/secret.txt")
        let tree = try TreeReader(path: scene.tree)
        for path in ["e/secret.txt", "secret.txt"] {
            let message = refusal { try tree.read(path, limit: 1 << 20) }
            #expect(message == "\(path): is or passes through a symbolic link, which is not followed in a scanned tree")
            #expect(!message.contains(scene.marker) && !message.contains(scene.host))
        }
    }

    /// The documented choice: no link at all, even one whose target stays inside.
    @Test func doesNotFollowALinkThatStaysInside() throws {
        let scene = try Scene()
        try scene.link("alias", to: "sub")
        try scene.link("same.txt", to: "sub/file.txt")
        let tree = try TreeReader(path: scene.tree)
        #expect(refusal { try tree.read("alias/file.txt", limit: 100) }.contains("symbolic link"))
        #expect(refusal { try tree.read("same.txt", limit: 100) }.contains("symbolic link"))
        #expect(tree.exists("same.txt") && tree.exists("alias") && !tree.exists("missing") && !tree.exists("sub/file.txt/x"))
    }

    /// A FIFO would block a plain open forever; a device never ends.
    @Test func refusesSpecialFilesWithoutBlocking() throws {
        let scene = try Scene()
        #expect(mkfifo(scene.tree + "/fifo", 0o644) == 0)
        try scene.link("zero", to: "/dev/zero")
        let tree = try TreeReader(path: scene.tree)
        #expect(refusal { try tree.read("fifo", limit: 100) } == "fifo: not a regular file")
        #expect(refusal { try tree.read("sub", limit: 100) } == "sub: not a regular file")
        #expect(refusal { try tree.read("zero", limit: 100) }.contains("symbolic link"))
    }

    @Test func aFileOverTheBoundIsAnErrorNamingIt() throws {
        let scene = try Scene()
        let tree = try TreeReader(path: scene.tree)
        #expect(try tree.read("sub/file.txt", limit: 7).count == 7)
        #expect(refusal { try tree.read("sub/file.txt", limit: 6) } == "sub/file.txt: larger than 6 bytes")
        #expect(refusal { try tree.read("sub/missing.txt", limit: 6) } == "sub/missing.txt: does not exist")
    }
}
