import Foundation
import Git
import Support
import Testing

/// Fleet jobs with `--rev` clone their repository: in the sandbox, with `file` the one transport a
/// local source may use (round 4 found every clone refused: `protocol.allow=never` left none).
@Suite("git: clones in the sandbox")
struct GitCloneTests {
    func source(in root: String) throws -> (path: String, first: String) {
        let path = root + "/source"
        for arguments in [["init", "-q", "-b", "main", path]] + [["-C", path, "commit", "-q", "--allow-empty", "-m", "one"]] {
            let process = try Process.run(
                URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-c", "user.name=t", "-c", "user.email=t@e"] + arguments)
            process.waitUntilExit()
        }
        let first = try GitRepository(containing: path).commit("HEAD") ?? ""
        try "print(1)\n".write(toFile: path + "/app.py", atomically: false, encoding: .utf8)
        for arguments in [["-C", path, "add", "-A"], ["-C", path, "commit", "-qm", "two"]] {
            let process = try Process.run(
                URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-c", "user.name=t", "-c", "user.email=t@e"] + arguments)
            process.waitUntilExit()
        }
        return (path, first)
    }

    @Test("a local repository is cloned and detached at a revision; the clone is a plain tree here")
    func clonesLocalRepositoryAtRevision() throws {
        let root = try ScratchDirectory.make(prefix: "git-clone")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (path, first) = try source(in: root)
        try GitClone.make(from: path, into: root, name: "checkout", revision: nil)
        #expect(FileManager.default.fileExists(atPath: root + "/checkout/app.py"))
        try GitClone.make(from: path, into: root, name: "old", revision: first)
        #expect(!FileManager.default.fileExists(atPath: root + "/old/app.py"))
        #expect(try GitRepository(containing: root + "/old").commit("HEAD") == first)
    }

    @Test("clones are shallow by default, a commit id fetched at depth 1; a full clone when asked; a missing revision is bad input")
    func shallowByDefault() throws {
        let root = try ScratchDirectory.make(prefix: "git-clone")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (path, first) = try source(in: root)
        try GitClone.make(from: path, into: root, name: "tip", revision: nil)
        #expect(FileManager.default.fileExists(atPath: root + "/tip/.git/shallow"))
        try GitClone.make(from: path, into: root, name: "old", revision: first)
        #expect(FileManager.default.fileExists(atPath: root + "/old/.git/shallow"))
        #expect(try GitRepository(containing: root + "/old").commit("HEAD") == first)
        try GitClone.make(from: path, into: root, name: "full", revision: "main", bounds: .init(shallow: false))
        #expect(!FileManager.default.fileExists(atPath: root + "/full/.git/shallow"))
        let error = try #require(throws: SentinelError.self) {
            try GitClone.make(from: path, into: root, name: "none", revision: "no-such-branch")
        }
        #expect(error.code == .invalidInput && error.message == "\(path): no revision 'no-such-branch' in the repository")
    }

    @Test("ssh remotes, other transports and option-like names are refused before git runs")
    func refusesWhatWouldRunPrograms() throws {
        let root = try ScratchDirectory.make(prefix: "git-clone")
        defer { try? FileManager.default.removeItem(atPath: root) }
        for source in ["git@example.com:x/y.git", "ext::sh -c touch% /tmp/x", "ssh://example.com/x", "relative/path"] {
            #expect(throws: SentinelError.self) { try GitClone.make(from: source, into: root, name: "c", revision: nil) }
        }
        #expect(throws: SentinelError.self) { try GitClone.make(from: root, into: root, name: "--upload-pack=x", revision: nil) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).isEmpty)
    }
}
