#if canImport(Glibc)
    import Glibc
#endif
import Foundation

/// The directory an output is written into, opened once when the output is prepared.
///
/// The operator names the path, so links in its directory part are followed, with one
/// exception: a link that lies inside a tree the command reads (the scanned tree, the repository
/// heal works on, a sandbox's workspace) was put there by whoever writes that tree and is refused
/// (`out -> /etc` shipped in a repository). The walk is done component by component with
/// `O_NOFOLLOW`, each link's own directory checked. From then on every operation is relative to
/// the descriptor, and the final component is never followed.
final class OutputParent: Sendable {
    let fd: Int32
    private let named: String

    /// The directory's real path, for containment checks and messages (read when asked).
    var realPath: String { Self.realPath(of: fd) ?? named }

    /// The most links a walk follows (the kernel's own limit).
    private static let maxLinks = 40

    /// Opens the directory holding `path`'s last component; returns it with that component.
    /// `creating` makes missing directories (0755); links inside any of `trees` (real paths) are refused.
    static func open(for path: String, creating: Bool = false, trees: [String] = []) throws -> (OutputParent, name: String) {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent
        guard !path.isEmpty, !path.hasSuffix("/"), !name.isEmpty, name != ".", name != ".." else {
            throw SentinelError(.invalidInput, "\(path): not a file name")
        }
        let directory = url.deletingLastPathComponent().path
        let fd = try walk(directory, for: path, creating: creating, trees: trees)
        return (OutputParent(fd: fd, named: directory), name)
    }

    private init(fd: Int32, named: String) {
        self.fd = fd
        self.named = named
    }

    deinit { close(fd) }

    /// What sits at `name` (without following it): nil when nothing does.
    func kind(of name: String) -> (type: mode_t, device: UInt)? {
        var info = stat()
        guard fstatat(fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return (info.st_mode & S_IFMT, UInt(info.st_rdev))
    }

    /// A fresh name beside `name` for a temporary file or directory.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Whether the directory is `tree` or lies beneath it (`tree` a real path).
    func isInside(_ tree: String) -> Bool { Self.path(realPath, isInside: tree) }

    static func path(_ path: String, isInside tree: String) -> Bool {
        path == tree || path.hasPrefix(tree.hasSuffix("/") ? tree : tree + "/")
    }

    /// Opens the absolute `directory` one component at a time; returns an `O_RDONLY` descriptor.
    private static func walk(_ directory: String, for path: String, creating: Bool, trees: [String]) throws -> Int32 {
        var current = Glibc.open("/", LinuxFlags.openPathOnly | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { throw SentinelError(.io, "/: cannot open: \(Errno.current)") }
        defer { close(current) }
        var pending = directory.split(separator: "/").map(String.init).reversed() as [String]
        var links = 0
        func fail(_ problem: String, _ failure: Errno? = nil) -> SentinelError {
            SentinelError(.invalidInput, "\(path): \(problem)", errno: failure)
        }
        while let component = pending.popLast() {
            if component == "." { continue }
            var next = openat(current, component, LinuxFlags.openPathOnly | O_NOFOLLOW | O_CLOEXEC)
            if next < 0, errno == ENOENT, creating, component != ".." {
                guard mkdirat(current, component, 0o755) == 0 || errno == EEXIST else {
                    throw fail("cannot create directory \(component): \(Errno.current)", .current)
                }
                next = openat(current, component, LinuxFlags.openPathOnly | O_NOFOLLOW | O_CLOEXEC)
            }
            guard next >= 0 else {
                let failure = Errno.current
                throw fail(
                    failure.rawValue == ENOENT ? "directory \(directory) does not exist" : "cannot open directory \(directory): \(failure)",
                    failure)
            }
            var info = stat()
            guard fstat(next, &info) == 0 else {
                close(next)
                throw fail("cannot stat \(component): \(Errno.current)", .current)
            }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                close(current)
                current = next
            case S_IFLNK:
                defer { close(next) }
                let here = realPath(of: current) ?? "?"
                if let tree = trees.first(where: { Self.path(here, isInside: $0) }) {
                    throw fail("\(here)/\(component) is a symbolic link inside \(tree), the tree being read; it is not followed")
                }
                links += 1
                guard links <= maxLinks, let target = readLink(current, component) else {
                    throw fail("too many symbolic links in \(directory)")
                }
                pending += target.split(separator: "/").map(String.init).reversed()
                if target.hasPrefix("/") {
                    let root = Glibc.open("/", LinuxFlags.openPathOnly | O_DIRECTORY | O_CLOEXEC)
                    guard root >= 0 else { throw fail("cannot open /: \(Errno.current)") }
                    close(current)
                    current = root
                }
            default:
                close(next)
                throw fail("\(component) in \(directory) is not a directory")
            }
        }
        let fd = openat(current, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw fail("cannot open directory \(directory): \(Errno.current)", .current) }
        return fd
    }

    private static func readLink(_ directory: Int32, _ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(directory, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func realPath(of fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }
}

/// Creates `name` in `directory` with `data` as its whole content, never following or opening
/// anything already there (`O_CREAT | O_EXCL | O_NOFOLLOW`), and flushes it.
func createExclusive(_ directory: Int32, _ name: String, _ data: Data, mode: mode_t) -> Errno? {
    let fd = openat(directory, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
    guard fd >= 0 else { return .current }
    defer { close(fd) }
    // The umask must not decide what the operator reads: set the mode on what we created.
    if fchmod(fd, mode) != 0 { return .current }
    if let failure = data.withUnsafeBytes({ writeAll(fd, $0) }) { return failure }
    return fsync(fd) == 0 ? nil : .current
}
