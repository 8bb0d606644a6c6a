#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// The one way the CLI writes a file: a report, a baseline, a status file, a worker's options.
///
/// The caller's path is resolved once, before the work (a scan, a sandboxed run) that might plant
/// something at it: its directory is opened and held. The file is then written relative to that
/// descriptor under a fresh name (`O_CREAT | O_EXCL | O_NOFOLLOW`) and renamed into place, so a
/// link or FIFO planted at the name meanwhile is replaced, never followed or opened. Links,
/// devices, FIFOs and sockets at the name are refused when prepared, except the outputs named
/// directly: `/dev/null`, and `/dev/stdout` and `/dev/stderr` (written to the process's own
/// descriptors 1 and 2, not resolved through /proc).
public final class PreparedOutputFile: Sendable {
    /// The path as the caller gave it.
    public let path: String
    /// The real path of the directory holding the file (for containment checks).
    public var directory: String { parent?.realPath ?? "/dev" }
    private let parent: OutputParent?
    private let name: String
    private let target: Target

    private enum Target {
        case file
        case nullDevice
        case descriptor(Int32)
    }

    /// The device number of `/dev/null` (major 1, minor 3) on Linux.
    private static let nullDevice: UInt = 0x103
    /// Outputs named directly that are the process's own standard streams.
    private static let standardStreams: [String: Int32] = ["/dev/stdout": 1, "/dev/stderr": 2]

    /// Resolves `path`. Throws `SentinelError(.invalidInput)` naming the path when its directory
    /// is missing, or the name is a directory, a link or a special file other than those named
    /// directly, or its directory part has a link inside one of `trees` (real paths of the trees
    /// the command reads: whoever writes them may have planted it). `createParents` makes a
    /// missing directory first (0755).
    public init(path: String, createParents: Bool = false, refusingLinksInside trees: [String] = []) throws {
        self.path = path
        if let stream = Self.standardStreams[path] {
            (parent, name, target) = (nil, path, .descriptor(stream))
            return
        }
        let (parent, name) = try OutputParent.open(for: path, creating: createParents, trees: trees)
        var target = Target.file
        if let existing = parent.kind(of: name) {
            let problem: String?
            switch existing.type {
            case S_IFREG: problem = nil
            case S_IFDIR: problem = "is a directory"
            case S_IFLNK: problem = "is a symbolic link; name the file itself"
            case S_IFCHR where existing.device == Self.nullDevice:
                problem = nil
                target = .nullDevice
            default: problem = "is a special file (device, FIFO or socket); only a regular file or /dev/null"
            }
            if let problem { throw SentinelError(.invalidInput, "\(path): \(problem)") }
        }
        (self.parent, self.name, self.target) = (parent, name, target)
    }

    /// Writes `data` as the whole file (mode `mode` for a new regular file). Throws
    /// `SentinelError(.io)` naming the path.
    public func write(_ data: Data, mode: mode_t = 0o644) throws {
        switch target {
        case .descriptor(let fd):
            if let failure = data.withUnsafeBytes({ writeAll(fd, $0) }) {
                throw SentinelError(.io, "\(path): write failed: \(failure)", errno: failure)
            }
        case .nullDevice:
            try checkStillNull()
        case .file:
            guard let parent else { return }
            let temporary = OutputParent.temporaryName(for: name)
            let directory = parent.directory
            var failure = createExclusive(directory, temporary, data, mode: mode)
            if failure == nil {
                do throws(Errno) { try directory.rename(temporary, to: name) } catch { failure = error }
            }
            if let failure {
                try? directory.remove(temporary)
                throw SentinelError(.io, "\(path): write failed: \(failure)", errno: failure)
            }
        }
    }

    /// Writes the UTF-8 bytes of `text` as the whole file.
    public func write(_ text: String, mode: mode_t = 0o644) throws {
        try write(Data(text.utf8), mode: mode)
    }

    /// Whether the file lies in `tree` or beneath it (`tree` a real path).
    public func isInside(_ tree: String) -> Bool {
        parent?.isInside(tree) ?? false
    }

    /// `/dev/null` is opened only to check it is still the null device: what it would do with
    /// the bytes is discard them.
    private func checkStillNull() throws {
        guard let parent else { return }
        let fd: Int32
        do throws(Errno) {
            fd = try parent.directory.openFile(name, flags: O_WRONLY | O_NONBLOCK)
        } catch {
            throw SentinelError(.io, "\(path): cannot open: \(error)", errno: error)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFCHR, UInt(info.st_rdev) == Self.nullDevice else {
            throw SentinelError(.io, "\(path): is no longer /dev/null")
        }
    }
}
