#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// The one way the CLI appends to a file it keeps (the audit log, a notification file).
///
/// The directory is opened through `OutputParent` (the same walk as every output), the file
/// relative to it (`DirectoryDescriptor`) with `O_APPEND | O_NOFOLLOW | O_NONBLOCK`, created private (0600) when
/// missing, and kept only when it is a regular file: a link, FIFO, device or socket at the name
/// is refused, never followed, opened for writing or blocked on. Whole lines written with one
/// `write` by concurrent appenders never interleave (`O_APPEND`).
public final class AppendOnlyFile: Sendable {
    /// The path as the caller gave it.
    public let path: String
    /// The open descriptor (read and append), closed when the value goes away.
    public let fd: Int32

    /// Opens (creating) `path` for appending. Throws `SentinelError(.io)` naming the path when it
    /// cannot be opened, or `SentinelError(.invalidInput)` when it is not a regular file.
    public init(path: String) throws {
        self.path = path
        let (parent, name) = try OutputParent.open(for: path)
        let fd: Int32
        do throws(Errno) {
            fd = try parent.directory.openFile(name, flags: O_RDWR | O_APPEND | O_CREAT | O_NONBLOCK, mode: 0o600)
        } catch {
            if error.rawValue == ELOOP { throw SentinelError(.invalidInput, "\(path): is a symbolic link") }
            throw SentinelError(.io, "\(path): cannot open: \(error)", errno: error)
        }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            throw SentinelError(.invalidInput, "\(path): not a regular file")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Appends `bytes` with one `write` where the kernel allows it. Throws `SentinelError(.io)`.
    public func append(_ bytes: [UInt8]) throws {
        if let failure = bytes.withUnsafeBytes({ writeAll(fd, $0) }) {
            throw SentinelError(.io, "\(path): cannot append: \(failure)", errno: failure)
        }
    }
}
