#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials

/// The directory an output is written into, opened once when the output is prepared.
///
/// The operator names the path, so links in its directory part are followed, with one
/// exception: a link that lies inside a tree the command reads (the scanned tree, the repository
/// heal works on, a sandbox's workspace) was put there by whoever writes that tree and is refused
/// (`out -> /etc` shipped in a repository). The walk is done component by component with
/// `O_NOFOLLOW`, each link's own directory checked. From then on every operation is relative to
/// the descriptor, and the final component is never followed.
final class OutputParent: Sendable {
    let directory: DirectoryDescriptor
    private let named: String

    /// The directory's real path, for containment checks and messages (read when asked).
    var realPath: String { Self.realPath(of: directory.rawValue) ?? named }

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
        let opened = try walk(directory, for: path, creating: creating, trees: trees)
        return (OutputParent(opened, named: directory), name)
    }

    private init(_ directory: DirectoryDescriptor, named: String) {
        self.directory = directory
        self.named = named
    }

    /// What sits at `name` (without following it): nil when nothing does.
    func kind(of name: String) -> (type: mode_t, device: UInt)? {
        guard let info = try? directory.status(of: name) else { return nil }
        return (info.st_mode & S_IFMT, UInt(info.st_rdev))
    }

    /// A fresh name beside `name` for a temporary file or directory.
    static func temporaryName(for name: String) -> String {
        ".\(name).tmp-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Whether the directory is `tree` or lies beneath it, by identity: see `descriptor(_:isInside:)`.
    func isInside(_ tree: String) -> Bool {
        guard let identity = TreeIdentity(path: tree) else { return false }
        return Self.descriptor(directory.rawValue, isInside: [identity]) != nil
    }

    /// The first of `trees` that directory `fd` is, or lies beneath, or nil. Decided by device and
    /// inode while walking up through `..` by descriptor, never by comparing paths: a tree that is
    /// also mounted at a second path (a bind mount) is the same tree there (red team R12).
    static func descriptor(_ fd: Int32, isInside trees: [TreeIdentity]) -> TreeIdentity? {
        guard !trees.isEmpty else { return nil }
        var current = fd
        var owned: [DirectoryDescriptor] = []
        defer { withExtendedLifetime(owned) {} }
        // Deeper than PATH_MAX allows: a walk that long is not a directory chain we made.
        for _ in 0..<Int(PATH_MAX) {
            var info = stat()
            guard fstat(current, &info) == 0 else { return nil }
            let here = TreeIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
            if let tree = trees.first(where: { $0 == here }) { return tree }
            let step = { () throws(Errno) in
                try DirectoryDescriptor(duplicating: current).openDirectory("..", pathOnly: true, followingLinks: true)
            }
            guard case .success(let parent) = Result(catching: step), let parentInfo = try? parent.status(),
                // `/` is its own parent.
                parentInfo.st_dev != info.st_dev || parentInfo.st_ino != info.st_ino
            else { return nil }
            owned.append(parent)
            current = parent.rawValue
        }
        return nil
    }

    /// Opens the absolute `directory` one component at a time; returns it open for reading.
    private static func walk(_ directory: String, for path: String, creating: Bool, trees: [String]) throws -> DirectoryDescriptor {
        func fail(_ problem: String, _ failure: Errno? = nil) -> SentinelError {
            SentinelError(.invalidInput, "\(path): \(problem)", errno: failure)
        }
        let openRoot = { () throws(Errno) in try DirectoryDescriptor.workingDirectory.openDirectory("/", pathOnly: true) }
        var current: DirectoryDescriptor
        switch Result(catching: openRoot) {
        case .success(let root): current = root
        case .failure(let failure): throw SentinelError(.io, "/: cannot open: \(failure)")
        }
        // The trees as the kernel knows them, taken now: whatever path later leads into one.
        let identities = trees.compactMap(TreeIdentity.init(path:))
        var pending = directory.split(separator: "/").map(String.init).reversed() as [String]
        var links = 0
        while let component = pending.popLast() {
            if component == "." { continue }
            let openComponent = { () throws(Errno) in try current.openFile(component, flags: LinuxFlags.openPathOnly) }
            var opened = Result(catching: openComponent)
            if case .failure(let missing) = opened, missing.rawValue == ENOENT, creating, component != ".." {
                let make = { () throws(Errno) in try current.makeDirectory(component, mode: 0o755) }
                if case .failure(let failure) = Result(catching: make), failure.rawValue != EEXIST {
                    throw fail("cannot create directory \(component): \(failure)", failure)
                }
                opened = Result(catching: openComponent)
            }
            let next: Int32
            switch opened {
            case .success(let fd): next = fd
            case .failure(let failure):
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
                current = DirectoryDescriptor(taking: next)
            case S_IFLNK:
                close(next)
                let here = realPath(of: current.rawValue) ?? "?"
                if let tree = descriptor(current.rawValue, isInside: identities) {
                    throw fail(
                        "\(here)/\(component) is a symbolic link inside \(tree.path ?? "a tree"), the tree being read; it is not followed")
                }
                links += 1
                guard links <= maxLinks, let target = try? current.linkTarget(component), target.count > 1 else {
                    throw fail("too many symbolic links in \(directory)")
                }
                let text = String(decoding: target.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
                pending += text.split(separator: "/").map(String.init).reversed()
                if text.hasPrefix("/") {
                    switch Result(catching: openRoot) {
                    case .success(let root): current = root
                    case .failure(let failure): throw fail("cannot open /: \(failure)")
                    }
                }
            default:
                close(next)
                throw fail("\(component) in \(directory) is not a directory")
            }
        }
        do throws(Errno) {
            return try current.reopened()
        } catch {
            throw fail("cannot open directory \(directory): \(error)", error)
        }
    }

    private static func realPath(of fd: Int32) -> String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")
    }
}

/// Creates `name` in `directory` with `data` as its whole content, never following or opening
/// anything already there (`O_CREAT | O_EXCL | O_NOFOLLOW`), and flushes it.
func createExclusive(_ directory: DirectoryDescriptor, _ name: String, _ data: Data, mode: mode_t) -> Errno? {
    let fd: Int32
    do throws(Errno) {
        fd = try directory.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
    } catch {
        return error
    }
    defer { close(fd) }
    // The umask must not decide what the operator reads: set the mode on what we created.
    if fchmod(fd, mode) != 0 { return .current }
    if let failure = data.withUnsafeBytes({ writeAll(fd, $0) }) { return failure }
    return fsync(fd) == 0 ? nil : .current
}

/// A directory tree as the kernel knows it: its root's device and inode (and, for messages, the
/// path it was named by).
struct TreeIdentity: Sendable {
    let device: UInt64
    let inode: UInt64
    var path: String?

    init(device: UInt64, inode: UInt64, path: String? = nil) {
        (self.device, self.inode, self.path) = (device, inode, path)
    }

    /// The identity of the directory at `path` (links followed: the operator named it), or nil.
    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), path: path)
    }

    static func == (lhs: TreeIdentity, rhs: TreeIdentity) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode
    }
}
