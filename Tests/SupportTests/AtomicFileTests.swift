#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing
@testable import Support

@Suite struct AtomicFileTests {
    @Test func replacesARegularFileWhole() throws {
        let path = NSTemporaryDirectory() + "atomic-\(UUID().uuidString)"
        defer { unlink(path) }
        try AtomicFile.write("old content that is long", to: path)
        try AtomicFile.write("new", to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.contains((path as NSString).lastPathComponent + ".tmp") }
        #expect(leftovers.isEmpty)
    }

    /// `--output /dev/null` must never turn the device node into a regular file.
    @Test func writesDevicesInPlace() throws {
        var before = stat()
        #expect(stat("/dev/null", &before) == 0)
        try AtomicFile.write("discarded", to: "/dev/null")
        var after = stat()
        #expect(stat("/dev/null", &after) == 0)
        #expect(after.st_mode & S_IFMT == S_IFCHR)
        #expect(after.st_rdev == before.st_rdev)
    }

    @Test func aDirectoryIsAClearError() {
        #expect(throws: SentinelError.self) { try AtomicFile.write("x", to: NSTemporaryDirectory()) }
    }

    @Test func aMissingDirectoryIsAClearError() {
        #expect(throws: SentinelError.self) { try AtomicFile.write("x", to: "/nonexistent-dir/file") }
    }
}
