import Foundation
import Git
import Support
import Heal
import Testing

/// A repository handed to `heal` is hostile input: a symbolic link in it must not make the
/// parent (root) read a host file into a prompt or an excerpt, nor write a candidate's file
/// outside the candidate tree.
@Suite("heal: hostile repository links")
struct HealRepositoryEscapeTests {
    final class HostileRepository {
        let root: String
        var repo: String { root + "/repo" }
        var outside: String { root + "/outside" }

        init() throws {
            root = try ScratchDirectory.make(prefix: "heal-escape")
            try FileManager.default.createDirectory(atPath: repo, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
            try "host secret\n".write(toFile: outside + "/secret.txt", atomically: false, encoding: .utf8)
            try "x = 1\n".write(toFile: repo + "/app.py", atomically: false, encoding: .utf8)
            // `pkg` leads out of the repository; so does a file link.
            try FileManager.default.createSymbolicLink(atPath: repo + "/pkg", withDestinationPath: outside)
            try FileManager.default.createSymbolicLink(atPath: repo + "/leak.txt", withDestinationPath: outside + "/secret.txt")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }
    }

    @Test("reading through a directory or file link of the repository yields nothing")
    func readThroughLinks() throws {
        let hostile = try HostileRepository()
        let workspace = try HealWorkspace(repository: hostile.repo)
        #expect(workspace.files == ["app.py"])
        #expect(workspace.read("pkg/secret.txt") == nil)
        #expect(workspace.read("leak.txt") == nil)
        #expect(workspace.read("app.py") == "x = 1\n")
    }

    @Test("a candidate file under a linked directory is refused, and nothing is written outside")
    func writeThroughLinks() throws {
        let hostile = try HostileRepository()
        let workspace = try HealWorkspace(repository: hostile.repo)
        for path in ["pkg/planted.py", "pkg/secret.txt"] {
            #expect(throws: (any Error).self) {
                _ = try workspace.tree(applying: [FileChange(path: path, before: nil, after: "owned\n")])
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: hostile.outside) == ["secret.txt"])
        #expect(try String(contentsOfFile: hostile.outside + "/secret.txt", encoding: .utf8) == "host secret\n")
    }
}
