#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import Foundation
import Support
import Testing

/// Inside the sandbox openat2 answers ENOSYS, so opening beneath a directory falls back to one
/// `openat(O_NOFOLLOW)` per component. The fallback must refuse all that openat2 refuses there.
@Suite("openat beneath, by steps: the refusals of RESOLVE_BENEATH without openat2")
struct BeneathByStepsTests {
    final class Tree {
        let root: String
        let fd: Int32

        init() throws {
            root = try ScratchDirectory.make(prefix: "beneath")
            try FileManager.default.createDirectory(atPath: root + "/top/a/b", withIntermediateDirectories: true)
            try "x".write(toFile: root + "/top/a/b/f", atomically: false, encoding: .utf8)
            try "secret".write(toFile: root + "/outside", atomically: false, encoding: .utf8)
            try FileManager.default.createSymbolicLink(atPath: root + "/top/a/up", withDestinationPath: root)
            try FileManager.default.createSymbolicLink(atPath: root + "/top/a/flink", withDestinationPath: root + "/outside")
            fd = open(root + "/top", LinuxFlags.openPathOnly | O_DIRECTORY | O_CLOEXEC)
        }

        deinit {
            close(fd)
            try? FileManager.default.removeItem(atPath: root)
        }

        /// The errno of opening `name` beneath `top`, or 0 when it opened.
        func errno(_ name: String) -> Int32 {
            let opened = csys_openat_beneath_by_steps(fd, name, O_RDONLY)
            if opened >= 0 {
                close(opened)
                return 0
            }
            return Glibc.errno
        }
    }

    @Test("files and directories beneath open, however the name is spelled")
    func opensBeneath() throws {
        let tree = try Tree()
        for name in ["a/b/f", "a//b/./f", "./a/b/f", "a/b", "a/b/", "."] {
            #expect(tree.errno(name) == 0, "\(name)")
        }
    }

    @Test(
        "links, parents, absolute names and missing files are refused",
        arguments: [
            ("a/up/outside", ELOOP), ("a/flink", ELOOP), ("a/../../outside", EXDEV), ("..", EXDEV), ("/etc/passwd", EXDEV),
            ("a/none", ENOENT),
        ])
    func refuses(name: String, expected: Int32) throws {
        let tree = try Tree()
        #expect(tree.errno(name) == expected, "\(name)")
    }

    @Test("a mount below the directory is not crossed", .enabled(if: geteuid() == 0))
    func doesNotCrossMounts() throws {
        let tree = try Tree()
        // /proc is another mount: reach it through a bind-free route, a fresh directory fd of "/".
        let root = open("/", LinuxFlags.openPathOnly | O_DIRECTORY | O_CLOEXEC)
        defer { close(root) }
        let opened = csys_openat_beneath_by_steps(root, "proc/1/status", O_RDONLY)
        #expect(opened == -1 && Glibc.errno == EXDEV)
        _ = tree
    }
}
