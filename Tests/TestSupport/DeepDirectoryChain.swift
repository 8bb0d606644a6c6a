#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A fresh directory holding `top.py` and a chain of `depth` directories named `d`, the deepest
/// holding `deep.py`: the attacker-chosen depth the walkers and copiers must bound (issue 26).
/// Made and removed through descriptors, as the chain outgrows PATH_MAX.
public struct DeepDirectoryChain: Sendable {
    /// The top directory.
    public let root: String

    /// Makes the chain under the temporary directory.
    public init(depth: Int) throws {
        root = NSTemporaryDirectory() + "sentinel-depth-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: false)
        try "x = 1\n".write(toFile: root + "/top.py", atomically: false, encoding: .utf8)
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for _ in 0..<depth where fd >= 0 {
            let made = mkdirat(fd, "d", 0o755) == 0
            let next = made ? openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1
            close(fd)
            fd = next
        }
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: root]) }
        close(openat(fd, "deep.py", O_WRONLY | O_CREAT | O_CLOEXEC, 0o644))
        close(fd)
    }

    /// Removes the chain with `rm -rf`, which handles trees of any depth through descriptors.
    public func remove() {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", root]).waitUntilExit()
    }
}
