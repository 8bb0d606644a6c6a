#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support
import Testing

@testable import Sandbox

/// How a workspace is named: a path with no link in it, or the descriptor path a fleet worker's
/// scan was handed (the directory the worker checked and holds), never a link.
@Suite struct WorkspaceDirectoryTests {
    @Test func aDescriptorPathIsTheOpenDirectoryALinkIsRefused() throws {
        let host = TemporaryDirectory("sentinel-ws-held")
        let held = try DirectoryDescriptor.workingDirectory.openDirectory(host.path)
        let workspace = try WorkspaceDirectory(resolving: held.descriptorPath)
        var info = stat()
        #expect(stat(host.path, &info) == 0)
        #expect(workspace.device == UInt64(info.st_dev) && workspace.inode == UInt64(info.st_ino))
        #expect(workspace.path == URL(fileURLWithPath: host.path).resolvingSymlinksInPath().path)

        #expect(symlink(host.path, host.path + "-link") == 0)
        defer { unlink(host.path + "-link") }
        #expect(throws: SentinelError.self) { try WorkspaceDirectory(resolving: host.path + "-link") }
        // A descriptor path to a system tree is refused as the tree itself is.
        let etc = try DirectoryDescriptor.workingDirectory.openDirectory("/etc")
        #expect(throws: SentinelError.self) { try WorkspaceDirectory(resolving: etc.descriptorPath) }
    }
}
