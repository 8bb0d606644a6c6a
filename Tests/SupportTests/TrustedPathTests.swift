#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

@testable import Support
import TestSupport

/// The sudo-style check of what Sentinel runs or reads its configuration from, and the descriptor
/// walk under it. Run as root, as CI does: uid 65534 stands for another user.
@Suite struct TrustedPathTests {
    /// A fresh root-made directory under /tmp (a sticky, world-writable directory root owns).
    static func temporary() throws -> String {
        let path = try #require(OutputPlacement.realPath(try TemporaryDirectory.make("trusted")))
        try FileManager.default.createDirectory(atPath: path + "/a/b", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: path + "/a/b/file", contents: Data()))
        return path
    }

    /// The message `body` throws with, nil when it passes.
    static func refusal(_ body: () throws -> Void) -> String? {
        do {
            try body()
            return nil
        } catch {
            let refused = error as? SentinelError
            #expect(refused?.code == .untrustedPath && refused?.exitStatus == 2)
            return refused?.message ?? "\(error)"
        }
    }

    @Test(.enabled(if: geteuid() == 0, "makes files another user owns"))
    func aTreeRootMadeUnderTmpPassesAndOneAnotherUserOwnsDoesNot() throws {
        let top = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b") } == nil)
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/b/file") } == nil)
        #expect(chown(top + "/a", 65534, 65534) == 0)
        let owned = "\(top)/a is owned by uid 65534, not by root or uid 0"
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b") } == owned)
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/b/file") } == owned)
        // The same tree is hers to use when she runs it.
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b", euid: 65534) } == nil)
    }

    @Test func writableByGroupOrOthersIsRefusedAboveAndAtTheCandidate() throws {
        let top = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(chmod(top + "/a", 0o775) == 0)
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b") } == "\(top)/a is writable by its group (mode 775)")
        #expect(chmod(top + "/a", 0o755) == 0)
        #expect(chmod(top + "/a/b/file", 0o646) == 0)
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/b/file") } == "\(top)/a/b/file is writable by others (mode 646)")
        // Sticky and root's: fine above the candidate, not as the candidate itself.
        #expect(chmod(top + "/a", 0o1777) == 0)
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b") } == nil)
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a") } == "\(top)/a is writable by its group and others (mode 1777)")
    }

    @Test(.enabled(if: geteuid() == 0, "makes files another user owns"))
    func aStickyDirectoryAnotherUserOwnsIsRefused() throws {
        let top = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(chown(top + "/a", 65534, 65534) == 0 && chmod(top + "/a", 0o1777) == 0)
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b") } == "\(top)/a is owned by uid 65534, not by root or uid 0")
    }

    @Test func linksAndMissingComponentsAreRefused() throws {
        let top = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        #expect(symlink(top + "/a", top + "/link") == 0)
        #expect(symlink(top + "/a/b/file", top + "/a/b/file-link") == 0)
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/link/b") } == "\(top)/link is a symbolic link")
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/b/file-link") } == "\(top)/a/b/file-link is a symbolic link")
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/nope") } == "\(top)/nope does not exist")
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/nope") } == "\(top)/a/nope does not exist")
        #expect(Self.refusal { _ = try TrustedPath.directory(top + "/a/b/file") } == "\(top)/a/b/file is not a directory")
        #expect(Self.refusal { try TrustedPath.checkFile(top + "/a/b") } == "\(top)/a/b is not a regular file")
    }

    @Test func theChainHoldsEachDirectoryAndStepsBackOnDotDot() throws {
        let top = try Self.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        let chain = try DirectoryChain(opening: top + "//a/./b/../b")
        #expect(chain.links.map(\.path).suffix(3) == [top, top + "/a", top + "/a/b"])
        #expect(chain.links.first?.path == "/")
        var info = stat()
        #expect(stat(top + "/a", &info) == 0 && chain.contains(info))
        #expect(stat("/etc", &info) == 0 && !chain.contains(info))
        #expect(try DirectoryChain(opening: top + "/a/b/../..").last.path == top)
        #expect(try DirectoryChain(opening: "/../..").last.path == "/")
        #expect(throws: DirectoryChain.Failure.self) { try DirectoryChain(opening: "relative/path") }
    }
}
