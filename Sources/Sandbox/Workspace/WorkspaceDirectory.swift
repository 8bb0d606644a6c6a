#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import FoundationEssentials
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
    /// directory, or is a system directory. A descriptor path (`/proc/PID/fd/N`: a scan a fleet
    /// worker handed the directory it checked and holds) is that open directory itself, checked
    /// like any other under the path the kernel gives it now.
    public convenience init(resolving path: String) throws {
        try self.init(resolving: path, asWorkspace: true)
    }

    /// Opens `path` like `init(resolving:)`; `asWorkspace` false skips the system-tree check, for
    /// a directory a root launcher lends by its own choice (its state beneath `/root`).
    init(resolving path: String, asWorkspace: Bool) throws {
        // Lexical only: with no link in the path, `a/b/..` is `a`.
        var absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let fd: Int32
        if DirectoryDescriptor.isDescriptorPath(absolute),
            let held = try? DirectoryDescriptor.workingDirectory.openDirectory(absolute, pathOnly: true, followingLinks: true)
        {
            fd = fcntl(held.rawValue, F_DUPFD_CLOEXEC, 0)
            absolute = DirectoryDescriptor.currentPath(of: held.rawValue) ?? absolute
        } else {
            fd = sbx_open_directory_nofollow(absolute)
        }
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
        if asWorkspace, let system = Self.systemTree(fd: fd, device: device, inode: inode, path: absolute) {
            let what = system == absolute ? "is a system directory" : "lies beneath the system directory \(system)"
            throw SentinelError(.invalidInput, "\(path): \(what) and cannot be a workspace")
        }
    }

    deinit { close(fd) }

    /// The same directory (device and inode) named by the same path.
    public static func == (lhs: WorkspaceDirectory, rhs: WorkspaceDirectory) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.path == rhs.path
    }

    /// The path the caller named.
    public var description: String { path }

    /// Directories beneath a system tree that may still hold a workspace: scratch space like
    /// `/tmp`, and the CI agents' own work trees. Anything beneath them is accepted.
    public static let allowedBeneathSystemTrees = ["/var/tmp", "/var/lib/jenkins/workspace", "/var/lib/buildkite-agent/builds"]
    /// Root's home holds projects too (a self-hosted runner as root): a directory beneath
    /// `/root` whose first component is not hidden is accepted; `/root/.ssh` and the like are not.
    static let homeOfRoot = "/root"

    /// The system tree this directory is, lies beneath, or is an ancestor of, compared by device
    /// and inode along the directory's real chain of parents (`openat(fd, "..")`), so that no
    /// spelling of the path and no bind mount aliasing a system tree gets around it.
    private static func systemTree(fd: Int32, device: UInt64, inode: UInt64, path: String) -> String? {
        let guarded = identities(of: Set(systemDirectories).union(["/"]), withAncestors: true)
        if let exact = guarded[Identity(device: device, inode: inode)] { return exact }
        if allowedBeneathSystemTrees.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) { return nil }
        let beneathRoot = path.dropFirst(homeOfRoot.count + 1).split(separator: "/").first
        if path.hasPrefix(homeOfRoot + "/"), let first = beneathRoot, !first.hasPrefix(".") { return nil }
        let trees = identities(of: Set(systemDirectories), withAncestors: false)
        for ancestor in ancestors(of: fd) {
            if let tree = trees[ancestor] { return tree }
        }
        // A pseudo filesystem by its device, when it is mounted there: in a chroot whose `/sys` is
        // a plain directory of the root's own filesystem, that device is every directory's.
        var top = stat()
        let rootDevice = stat("/", &top) == 0 ? UInt64(top.st_dev) : nil
        for pseudo in pseudoFilesystems {
            var info = stat()
            if path.hasPrefix(pseudo + "/")
                || (stat(pseudo, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_dev) != rootDevice)
            {
                return pseudo
            }
        }
        return nil
    }

    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    /// The device and inode of each directory (and its real path, when a system directory is
    /// itself a link, as in merged /usr layouts), optionally with every ancestor up to `/`.
    private static func identities(of directories: Set<String>, withAncestors: Bool) -> [Identity: String] {
        var names = directories
        for directory in directories {
            if let real = realpath(directory, nil) {
                names.insert(String(cString: real))
                free(real)
            }
            var ancestor = PathText.directory(of: directory)
            while withAncestors, ancestor != "/", !ancestor.isEmpty {
                names.insert(ancestor)
                ancestor = PathText.directory(of: ancestor)
            }
        }
        var result: [Identity: String] = [:]
        for name in names.sorted() {
            var info = stat()
            if stat(name, &info) == 0 { result[Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))] = name }
        }
        return result
    }

    /// The directory's parents, nearest first, up to `/` (mounts are crossed as `..` crosses them).
    private static func ancestors(of fd: Int32) -> [Identity] {
        var chain: [Identity] = []
        var current = try? DirectoryDescriptor(duplicating: fd).openDirectory("..", pathOnly: true)
        while let directory = current, chain.count < 4096 {
            guard let info = try? directory.status() else { break }
            let identity = Identity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            if chain.last == identity { break }  // `/` is its own parent
            chain.append(identity)
            current = try? directory.openDirectory("..", pathOnly: true)
        }
        return chain
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
