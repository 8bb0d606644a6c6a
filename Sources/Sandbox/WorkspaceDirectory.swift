#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import Foundation
import Support

/// The workspace directory, resolved once by the parent: opened without following any
/// symbolic link, checked not to be a system tree, and held open so that the sandbox mounts
/// exactly this directory whatever happens to the path afterwards.
public final class WorkspaceDirectory: Sendable, Equatable, CustomStringConvertible {
    /// The absolute path the caller named (for messages and the unprivileged re-open).
    public let path: String
    /// An `O_PATH` descriptor of the directory, closed when this value goes away.
    public let fd: Int32
    /// The device number of the directory, as `fstat` gave it.
    public let device: UInt64
    /// The inode number of the directory, as `fstat` gave it.
    public let inode: UInt64
    /// The directory's owner uid on the host.
    public let ownerUID: UInt32
    /// The directory's owner gid on the host.
    public let ownerGID: UInt32
    /// Permission bits of the directory.
    public let mode: UInt32

    /// Host trees that are never a workspace; their ancestors (`/`) are refused too.
    public static let systemDirectories = ["/etc", "/usr", "/root", "/boot", "/proc", "/sys", "/dev", "/run", "/var"]
    /// Pseudo filesystems: nothing beneath them is a workspace either.
    static let pseudoFilesystems = ["/proc", "/sys", "/dev"]

    /// Opens `path` (relative paths are taken from the current directory). Throws
    /// `SentinelError(.invalidInput)` naming the path when it holds a symbolic link, is not a
    /// directory, or is a system directory.
    public init(resolving path: String) throws {
        // Lexical only: with no link in the path, `a/b/..` is `a`.
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let fd = sbx_open_directory_nofollow(absolute)
        guard fd >= 0 else {
            let failure = Errno.current
            switch failure.rawValue {
            case ELOOP:
                let link = Self.firstSymlink(in: absolute).map { " (\($0.path) -> \($0.target))" } ?? ""
                throw SentinelError(.invalidInput, "\(path): workspace path contains a symbolic link\(link); name the real directory")
            case ENOTDIR:
                throw SentinelError(.invalidInput, "\(path): workspace is not a directory")
            case ENOENT:
                throw SentinelError(.invalidInput, "\(path): workspace not found")
            default:
                throw SentinelError(.invalidInput, "\(path): cannot open workspace: \(failure)", errno: failure)
            }
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let failure = Errno.current
            close(fd)
            throw SentinelError(.invalidInput, "\(path): cannot stat workspace: \(failure)", errno: failure)
        }
        self.path = absolute
        self.fd = fd
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        ownerUID = info.st_uid
        ownerGID = info.st_gid
        mode = UInt32(info.st_mode & 0o7777)
        if let system = Self.systemTree(device: device, inode: inode, path: absolute) {
            throw SentinelError(.invalidInput, "\(path): \(system) is a system directory and cannot be a workspace")
        }
    }

    deinit { close(fd) }

    /// The same directory (device and inode) named by the same path.
    public static func == (lhs: WorkspaceDirectory, rhs: WorkspaceDirectory) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.path == rhs.path
    }

    /// The path the caller named.
    public var description: String { path }

    /// The system directory (or ancestor of one) this directory is, compared by device and
    /// inode so that no spelling of the path gets around it; or one it lies beneath when that
    /// is a pseudo filesystem.
    private static func systemTree(device: UInt64, inode: UInt64, path: String) -> String? {
        var guarded: Set<String> = ["/"]
        for directory in systemDirectories {
            var ancestor = directory
            while ancestor != "/" {
                guarded.insert(ancestor)
                ancestor = (ancestor as NSString).deletingLastPathComponent
            }
            // A system directory may itself be a link (merged /usr layouts): guard its target too.
            if let real = realpath(directory, nil) {
                guarded.insert(String(cString: real))
                free(real)
            }
        }
        for candidate in guarded.sorted() {
            var info = stat()
            if stat(candidate, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode {
                return candidate
            }
        }
        for pseudo in pseudoFilesystems {
            var info = stat()
            if path.hasPrefix(pseudo + "/") || (stat(pseudo, &info) == 0 && UInt64(info.st_dev) == device) {
                return pseudo
            }
        }
        return nil
    }

    /// For the error message only: the first component of `path` that is a symbolic link.
    private static func firstSymlink(in path: String) -> (path: String, target: String)? {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            var info = stat()
            guard lstat(current, &info) == 0 else { return nil }
            if info.st_mode & S_IFMT == S_IFLNK {
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: current)) ?? "?"
                return (current, target)
            }
        }
        return nil
    }
}
