#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

@testable import Support

/// `/proc/PID/fd/N`: how a checked directory is handed to another process by the descriptor, not by its path.
@Suite struct DescriptorPathTests {
    @Test func descriptorPathsNameTheOpenDirectory() throws {
        let top = try TrustedPathTests.temporary()
        defer { try? FileManager.default.removeItem(atPath: top) }
        let held = try DirectoryDescriptor.workingDirectory.openDirectory(top + "/a")
        #expect(rename(top + "/a", top + "/moved") == 0 && symlink("/etc", top + "/a") == 0)
        #expect(FileManager.default.fileExists(atPath: held.descriptorPath + "/b/file"))
        #expect(DirectoryDescriptor.isDescriptorPath(held.descriptorPath))
        for path in ["/proc/self/fd/3", "/dev/fd/12", "/proc/1/fd/0"] { #expect(DirectoryDescriptor.isDescriptorPath(path)) }
        for path in ["/proc/self/fd", "/proc/1/fd/x", "/proc/1/cwd", "proc/1/fd/3", "/proc/1/fd/3/", "/dev/fd/", "/tmp/fd/3"] {
            #expect(!DirectoryDescriptor.isDescriptorPath(path), "\(path)")
        }
    }
}
