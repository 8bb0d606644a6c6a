#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Git
import Testing

/// `GitRepository.head()` reads in one sandboxed run what `commit("HEAD")` and `currentBranch()`
/// read in two, in every state HEAD can be in.
@Suite("git: HEAD's commit and branch in one run", .enabled(if: geteuid() == 0, "the git sandbox needs root"))
struct GitHeadTests {
    func repository(_ steps: [[String]]) throws -> String {
        let path = NSTemporaryDirectory() + "git-head-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for arguments in [["init", "-q", "-b", "main"]] + steps {
            let process = try Process.run(
                URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-C", path, "-c", "user.name=t", "-c", "user.email=t@e"] + arguments)
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        return path
    }

    static let commit = ["commit", "-q", "--allow-empty", "-m", "x"]

    @Test(
        "on a branch, detached, and before the first commit: the same answers as the two reads",
        arguments: [
            [commit], [commit, ["checkout", "-q", "-b", "feature/x"]], [commit, commit, ["checkout", "-q", "--detach", "HEAD~1"]], [],
        ])
    func sameAsTwoReads(steps: [[String]]) throws {
        let path = try repository(steps)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let repository = try GitRepository(containing: path)
        let head = try repository.head()
        #expect(head.commit == (try repository.commit("HEAD")))
        #expect(head.branch == (try repository.currentBranch()))
        #expect((head.commit == nil) == steps.isEmpty)
        #expect((head.branch == nil) == (steps.last?.contains("--detach") == true))
    }
}
