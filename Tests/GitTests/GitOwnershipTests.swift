#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Git
import Testing

/// A checkout that belongs to another user — what actions/checkout leaves a container job that
/// runs as root — is read like any other: Sentinel's guard on the repository's configuration, not
/// the directory's owner, decides what is safe, and the guard still holds there.
@Suite("git: a repository owned by another user", .enabled(if: geteuid() == 0, "chown needs root"))
struct GitOwnershipTests {
    func repository(owner: uid_t) throws -> String {
        let path = NSTemporaryDirectory() + "git-owner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for arguments in [
            ["init", "-q", "-b", "main"], ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "--allow-empty", "-m", "x"],
        ] {
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/git"), arguments: ["-C", path] + arguments)
            process.waitUntilExit()
        }
        let chown = try Process.run(URL(fileURLWithPath: "/bin/chown"), arguments: ["-R", "\(owner):\(owner)", path])
        chown.waitUntilExit()
        return path
    }

    @Test("rev-parse and a branch read in a checkout owned by uid 1001 (git alone refuses: dubious ownership)")
    func readsCheckoutOfAnotherUser() throws {
        let path = try repository(owner: 1001)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let repository = try GitRepository(containing: path)
        #expect(repository.root == path)
        #expect(try repository.currentBranch() == "main")
        #expect(try repository.commit("HEAD") != nil)
    }

    @Test("its configuration still runs nothing: core.fsmonitor of another user's repository is guarded")
    func guardHoldsForAnotherUser() throws {
        let path = try repository(owner: 1001)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let marker = path + ".ran"
        let config = try String(contentsOfFile: path + "/.git/config", encoding: .utf8)
        try (config + "[core]\n\tfsmonitor = touch \(marker)\n").write(toFile: path + "/.git/config", atomically: false, encoding: .utf8)
        _ = try GitRunner.run(["status", "--porcelain"], in: path)
        #expect(!FileManager.default.fileExists(atPath: marker))
        try? FileManager.default.removeItem(atPath: marker)
    }
}
