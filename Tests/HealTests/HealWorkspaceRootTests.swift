#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Testing

@testable import Heal

/// The repository a heal snapshots: a directory, or the descriptor path a fleet worker hands its
/// heal (the directory it checked and holds open); a symbolic link is refused.
@Suite struct HealWorkspaceRootTests {
    @Test func aDescriptorPathIsSnapshottedALinkIsRefused() throws {
        let repository = NSTemporaryDirectory() + "heal-root-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: repository + "/pkg", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: repository) }
        try "x = 1\n".write(toFile: repository + "/pkg/mod.py", atomically: false, encoding: .utf8)
        let held = try DirectoryDescriptor.workingDirectory.openDirectory(repository)
        #expect(try HealWorkspace(repository: held.descriptorPath).files == ["pkg/mod.py"])
        #expect(symlink(repository, repository + "-link") == 0)
        defer { unlink(repository + "-link") }
        #expect(throws: SentinelError.self) { try HealWorkspace(repository: repository + "-link") }
    }
}
