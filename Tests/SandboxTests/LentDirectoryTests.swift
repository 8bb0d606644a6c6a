import Foundation
import Support
import TestSupport
import Testing

@testable import Sandbox

#if canImport(Glibc)
    import Glibc
#endif

/// A root launcher lends its own directory (the state directory, for Sentinel's unprivileged
/// analysis): the payload acts on it as its owner does, files it makes are the owner's on the
/// host, and nothing set-uid or below the directory's own mount comes along.
@Suite(.enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct LentDirectoryTests {
    /// A root-owned 0700 directory holding a root-only file.
    static func rootsDirectory() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory("lent")
        chmod(directory.path, 0o700)
        directory.write("state", "root's\n")
        chmod(directory.path + "/state", 0o600)
        return directory
    }

    @Test func aWritableLentDirectoryIsTheOwnersToThePayload() throws {
        let lent = try Self.rootsDirectory()
        var request = SandboxRequest(
            profile: .minimal,
            command: [
                "/bin/sh", "-c", "id -u; cat \(lent.path)/state; echo new > \(lent.path)/made; chmod 4755 \(lent.path)/made; echo $?",
            ])
        request.lent = [LentDirectory(path: lent.path, writable: true)]
        let result = try SandboxSession.run(request)
        #expect(result.exitCode == 0, "\(result.err)")
        let lines = result.out.split(separator: "\n").map(String.init)
        #expect(lines.first != "0", "the payload ran as root: \(result.out)")
        #expect(lines.dropFirst().first == "root's", "\(result.out) \(result.err)")
        var info = stat()
        #expect(stat(lent.path + "/made", &info) == 0)
        #expect(info.st_uid == 0 && info.st_gid == 0, "stored as \(info.st_uid):\(info.st_gid), not the owner's")
        #expect(info.st_mode & S_ISUID == 0, "a set-uid file reached the host")
    }

    @Test func aReadOnlyLentDirectoryRefusesWrites() throws {
        let lent = try Self.rootsDirectory()
        var request = SandboxRequest(
            profile: .minimal, command: ["/bin/sh", "-c", "cat \(lent.path)/state && ! touch \(lent.path)/made 2>/dev/null"])
        request.lent = [LentDirectory(path: lent.path, writable: false)]
        let result = try SandboxSession.run(request)
        #expect(result.exitCode == 0, "\(result.out) \(result.err)")
        #expect(access(lent.path + "/made", F_OK) != 0)
    }

    @Test func lentDirectoriesThatOverlapOrLieInLaunchersTreesAreRefused() throws {
        let lent = try Self.rootsDirectory()
        for (paths, workspace) in [([lent.path, lent.path + "/."], nil), (["/proc/self"], nil), ([lent.path], lent.path)]
            as [([String], String?)]
        {
            var request = SandboxRequest(profile: .minimal, command: ["/bin/true"], workspace: workspace)
            request.workspace.map { _ in request.workspaceMountPoint = lent.path }
            request.lent = paths.map { LentDirectory(path: $0, writable: false) }
            #expect(throws: SentinelError.self, "\(paths)") { try SandboxSession.run(request) }
        }
        // Nothing but the built-in filter keeps set-uid files off a writable lend; not even the
        // analysis's variant, whose openat2 hides the creation mode.
        for seccomp in [Profile.Seccomp.disabled, .defaultWithOpenat2] {
            var unfiltered = SandboxRequest(profile: .minimal, command: ["/bin/true"])
            unfiltered.profile.seccomp = seccomp
            unfiltered.lent = [LentDirectory(path: lent.path, writable: true)]
            #expect(throws: SentinelError.self, "\(seccomp)") { try SandboxSession.run(unfiltered) }
        }
    }
}
