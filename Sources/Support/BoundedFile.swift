#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// Reads a whole regular file with a size cap. FIFOs, devices and directories are refused
/// (a FIFO would block, a device never ends), so a path a user or a payload named cannot hang
/// or exhaust the reader.
public enum BoundedFile {
    /// The bytes of `path`, at most `limit` of them. `followLinks: false` refuses a final
    /// symbolic link. Errors are `SentinelError(.invalidInput)` naming the path and the problem.
    public static func read(_ path: String, limit: Int, followLinks: Bool = true) throws -> Data {
        let flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followLinks ? 0 : O_NOFOLLOW)
        let fd = open(path, flags)
        guard fd >= 0 else {
            let failure = Errno.current
            let reason = failure.rawValue == ELOOP ? "is a symbolic link" : "cannot open: \(failure)"
            throw SentinelError(.invalidInput, "\(path): \(reason)", errno: failure)
        }
        defer { close(fd) }
        return try read(fd: fd, name: path, limit: limit)
    }

    /// The bytes of the open file `fd` (named `name` in errors), at most `limit`.
    public static func read(fd: Int32, name: String, limit: Int) throws -> Data {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SentinelError(.invalidInput, "\(name): cannot stat: \(Errno.current)", errno: .current)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SentinelError(.invalidInput, "\(name): not a regular file")
        }
        guard Int(info.st_size) <= limit else {
            throw SentinelError(.invalidInput, "\(name): larger than \(limit) bytes")
        }
        var data = Data()
        // Chunks sized from the file's own size (procfs says 0), left uninitialised: zeroing a
        // 64 KiB buffer for every small file was most of what reading one cost.
        var chunkSize = min(max(Int(info.st_size) + 1, 4096), 64 << 10)
        while true {
            let chunk = try [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
                initialized = 0
                switch retryingOnInterrupt({ Glibc.read(fd, buffer.baseAddress, buffer.count) }) {
                case .success(let read): initialized = read
                case .failure(let failure): throw SentinelError(.io, "\(name): read failed: \(failure)", errno: failure)
                }
            }
            if chunk.isEmpty { break }
            data.append(contentsOf: chunk)
            guard data.count <= limit else { throw SentinelError(.invalidInput, "\(name): larger than \(limit) bytes") }
            chunkSize = 64 << 10
        }
        return data
    }

    /// The first `head` and the last `tail` bytes of the open regular file `fd` and its size,
    /// whatever that size: what a look at a file's two ends needs (a banner at the top, a source
    /// map comment at the bottom), reading at most `head + tail` bytes. A file no larger than
    /// `head + tail` is read whole, into `head`, and `tail` is empty.
    public static func ends(fd: Int32, name: String, head: Int, tail: Int) throws -> FileEnds {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SentinelError(.invalidInput, "\(name): cannot stat: \(Errno.current)", errno: .current)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SentinelError(.invalidInput, "\(name): not a regular file")
        }
        let size = Int(info.st_size)
        guard size > head + tail else {
            return FileEnds(head: try Self.head(fd: fd, name: name, count: head + tail), tail: [], size: size)
        }
        let first = try Self.head(fd: fd, name: name, count: head)
        var last: [UInt8] = []
        while last.count < tail {
            let want = tail - last.count
            let offset = off_t(size - tail + last.count)
            let chunk = try [UInt8](unsafeUninitializedCapacity: want) { buffer, initialized in
                initialized = 0
                switch retryingOnInterrupt({ pread(fd, buffer.baseAddress, buffer.count, offset) }) {
                case .success(let read): initialized = read
                case .failure(let failure): throw SentinelError(.io, "\(name): read failed: \(failure)", errno: failure)
                }
            }
            if chunk.isEmpty { break }
            last += chunk
        }
        return FileEnds(head: first, tail: last, size: size)
    }

    /// The first `count` bytes (or fewer, the whole file) of the open regular file `fd`: what a
    /// look at its beginning needs (a shebang line), whatever the file's size.
    public static func head(fd: Int32, name: String, count: Int) throws -> [UInt8] {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            throw SentinelError(.invalidInput, "\(name): cannot stat: \(Errno.current)", errno: .current)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw SentinelError(.invalidInput, "\(name): not a regular file")
        }
        var bytes: [UInt8] = []
        while bytes.count < count {
            let want = count - bytes.count
            let chunk = try [UInt8](unsafeUninitializedCapacity: want) { buffer, initialized in
                initialized = 0
                switch retryingOnInterrupt({ Glibc.read(fd, buffer.baseAddress, buffer.count) }) {
                case .success(let read): initialized = read
                case .failure(let failure): throw SentinelError(.io, "\(name): read failed: \(failure)", errno: failure)
                }
            }
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return bytes
    }
}

/// The two ends of a file, read by ``BoundedFile/ends(fd:name:head:tail:)``.
public struct FileEnds: Sendable, Hashable {
    /// The file's first bytes; the whole file when it is small.
    public var head: [UInt8]
    /// The file's last bytes; empty when `head` holds the whole file.
    public var tail: [UInt8]
    /// The file's size in bytes.
    public var size: Int

    /// Two ends of a `size`-byte file.
    public init(head: [UInt8], tail: [UInt8], size: Int) {
        self.head = head
        self.tail = tail
        self.size = size
    }

    /// Whether `head` holds the whole file.
    public var isWhole: Bool { tail.isEmpty && head.count == size }
}
