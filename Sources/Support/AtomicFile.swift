#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes files so that a reader sees either the old content or the new, never half of it:
/// the data goes to a temporary file in the same directory, is flushed, then renamed over.
public enum AtomicFile {
    /// Replaces `path` with `data`. Throws `SentinelError` naming the file on failure.
    public static func write(_ data: Data, to path: String, mode: mode_t = 0o644) throws {
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
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let n = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let writeErrno = Errno.current
        fchmod(fd, mode)
        let synced = fsync(fd) == 0
        close(fd)
        guard written, synced else {
            throw SentinelError(.io, "\(path): write failed: \(writeErrno)")
        }
        guard rename(temporary, path) == 0 else {
            throw SentinelError(.io, "\(path): rename failed: \(Errno.current)")
        }
        ok = true
    }

    /// Replaces `path` with the UTF-8 bytes of `text`.
    public static func write(_ text: String, to path: String, mode: mode_t = 0o644) throws {
        try write(Data(text.utf8), to: path, mode: mode)
    }
}
