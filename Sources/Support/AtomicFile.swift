#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// Writes files so that a reader sees either the old content or the new, never half of it:
/// the data goes to a temporary file in the same directory, is flushed, then renamed over.
public enum AtomicFile {
    /// Replaces `path` with `data`. Throws `SentinelError` naming the file on failure.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
        // A device, FIFO or socket (`--output /dev/stdout`, `/dev/null`) is written in place:
        // renaming over it would replace the device node with a regular file.
        var info = stat()
        if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFREG {
            guard info.st_mode & S_IFMT != S_IFDIR else {
                throw SentinelError(.io, "\(path): is a directory")
            }
            try writeInPlace(data, to: path)
            return
        }
        let directory = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        let template = (directory.isEmpty ? "." : directory) + "/.\(base).tmp-XXXXXX"
        var templateBytes = Array(template.utf8CString)
        let fd = templateBytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            throw SentinelError(.io, "\(path): cannot create temporary file: \(Errno.current)")
        }
        let temporary = String(nulTerminated: templateBytes)
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        var failure = data.withUnsafeBytes { writeAll(fd, $0) }
        fchmod(fd, mode)
        if failure == nil, fsync(fd) != 0 { failure = Errno.current }
        close(fd)
        if let failure {
            throw SentinelError(.io, "\(path): write failed: \(failure)")
        }
        guard rename(temporary, path) == 0 else {
            throw SentinelError(.io, "\(path): rename failed: \(Errno.current)")
        }
        ok = true
    }

    private static func writeInPlace(_ data: Data, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SentinelError(.io, "\(path): cannot open: \(Errno.current)") }
        defer { close(fd) }
        if let failure = data.withUnsafeBytes({ writeAll(fd, $0) }) {
            throw SentinelError(.io, "\(path): write failed: \(failure)")
        }
    }

    /// Replaces `path` with the UTF-8 bytes of `text`.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }
}
