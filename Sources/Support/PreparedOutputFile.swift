#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// A file the (root) launcher writes after an untrusted payload ran, such as `--status-json`.
///
/// The caller's path is resolved once, before the run: its directory is opened and held. The
/// file is then written relative to that descriptor under a fresh name (`O_CREAT | O_EXCL |
/// O_NOFOLLOW`) and renamed into place, so a link or FIFO planted at the name meanwhile is
/// replaced, never followed or opened. Links, devices, FIFOs and sockets named by the caller are
/// refused, except `/dev/null` itself (a character device 1:3 named directly), written in place.
public final class PreparedOutputFile: Sendable {
    /// The path as the caller gave it.
    public let path: String
    /// The real path of the directory holding the file (for containment checks).
    public let directory: String
    private let directoryFD: Int32
    private let name: String
    private let isNullDevice: Bool

    /// The device number of `/dev/null` (major 1, minor 3) on Linux.
    private static let nullDevice: UInt = 0x103

    /// Resolves `path`. Throws `SentinelError(.invalidInput)` naming the path when its directory
    /// is missing, or the name is a directory, a link or a special file other than /dev/null.
    public init(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard !path.hasSuffix("/"), !name.isEmpty, name != ".", name != ".." else {
            throw SentinelError(.invalidInput, "\(path): not a file name")
        }
        let parent = url.deletingLastPathComponent().path
        let fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else {
            throw SentinelError(
                .invalidInput, "\(path): cannot open directory \(parent): \(Errno.current)",
                errno: .current)
        }
        var info = stat()
        var isNullDevice = false
        if fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 {
            let problem: String?
            switch info.st_mode & S_IFMT {
            case S_IFREG: problem = nil
            case S_IFDIR: problem = "is a directory"
            case S_IFLNK: problem = "is a symbolic link; name the file itself"
            case S_IFCHR where UInt(info.st_rdev) == Self.nullDevice:
                problem = nil
                isNullDevice = true
            default: problem = "is a special file (device, FIFO or socket); only a regular file or /dev/null"
            }
            if let problem {
                close(fd)
                throw SentinelError(.invalidInput, "\(path): \(problem)")
            }
        }
        self.path = path
        self.name = name
        self.directoryFD = fd
        self.isNullDevice = isNullDevice
        self.directory = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) ?? parent
    }

    deinit { close(directoryFD) }

    /// Writes `data` as the whole file. Throws `SentinelError(.io)` naming the path.
    public func write(_ data: Data) throws {
        if isNullDevice {
            let fd = openat(directoryFD, name, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard fd >= 0 else { throw SentinelError(.io, "\(path): cannot open: \(Errno.current)") }
            defer { close(fd) }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR, UInt(info.st_rdev) == Self.nullDevice else {
                throw SentinelError(.io, "\(path): is no longer /dev/null")
            }
            return  // what /dev/null would do with the bytes

        }
        let temporary = ".\(name).tmp-\(UInt64.random(in: 0...UInt64.max))"
        let fd = openat(directoryFD, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw SentinelError(.io, "\(path): cannot create temporary file: \(Errno.current)")
        }
        var failure = data.withUnsafeBytes { writeAll(fd, $0) }
        if failure == nil, fsync(fd) != 0 { failure = Errno.current }
        close(fd)
        if failure == nil, renameat(directoryFD, temporary, directoryFD, name) != 0 { failure = Errno.current }
        if let failure {
            unlinkat(directoryFD, temporary, 0)
            throw SentinelError(.io, "\(path): write failed: \(failure)")
        }
    }

    /// Whether the file lies in `tree` or beneath it (`tree` a real path).
    public func isInside(_ tree: String) -> Bool {
        directory == tree || directory.hasPrefix(tree.hasSuffix("/") ? tree : tree + "/")
    }
}
