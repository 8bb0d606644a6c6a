import Foundation
import Support
import Testing

@testable import SCA

/// File and include names a repository chooses (found by `Tests/FuzzTests`).
@Suite struct HostileTreeNameTests {
    private func pins(_ files: [String: String], main: String = "requirements.txt") throws -> [String] {
        let parser = RequirementsParser(loader: { path in
            guard let text = files[path] else { throw SentinelError(.io, "\(path): no such file") }
            return Array(text.utf8)
        })
        let result = try parser.parse(Array((files[main] ?? "").utf8), file: main)
        return result.dependencies.map { "\($0.file) \($0.name) \($0.version ?? "nil")" }
    }

    /// An include of a one-character name that itself includes: Foundation's
    /// `deletingLastPathComponent` trapped on the one-character path (SIGILL, `sentinel scan` gone).
    @Test func aOneCharacterIncludeThatIncludes() throws {
        let files = ["requirements.txt": "-r a\n", "a": "-r b\n", "b": "x==1.0\n"]
        #expect(try pins(files) == ["b x 1.0"])
    }

    /// The directory of an include is everything before the last `/`, whatever follows it: a
    /// combining mark after the slash made Foundation find no slash, so `b` was read at the root.
    @Test func aCombiningMarkAfterTheSlashKeepsTheDirectory() throws {
        let files = ["requirements.txt": "-r d/\u{301}a.txt\n", "d/\u{301}a.txt": "-r b\n", "d/b": "x==1.0\n", "b": "y==2.0\n"]
        #expect(try pins(files) == ["d/b x 1.0"])
    }

    /// A file named with one character at the top of the tree: choosing its parser asked
    /// Foundation for its directory and trapped, so `sentinel scan` of such a tree crashed.
    @Test func aOneCharacterFileNameInTheTree() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tree-names-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try Data("hi\n".utf8).write(to: root.appendingPathComponent("a"))
        try Data("x==1.0\n".utf8).write(to: root.appendingPathComponent("requirements.txt"))
        let scan = try LockfileDetector(root: root.path).scan()
        #expect(scan.dependencies.map(\.name) == ["x"])
        #expect(LockfileDetector(root: root.path).parser(forFileName: "a") == nil)
    }
}
