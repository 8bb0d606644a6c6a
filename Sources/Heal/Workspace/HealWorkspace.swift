#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Git
import Support

/// Where candidates are tried. The repository is read once into a private snapshot (a 0700
/// directory of the launcher's); each candidate gets a tree of hard links to the snapshot with
/// its changed files written as new inodes, so trees cost little and the snapshot never changes.
/// A tree is the overlay workspace's lower layer: whatever the tests write goes to the
/// sandbox's upper layer and is thrown away, so nothing the payload does reaches a tree, the
/// snapshot or the repository, and nothing is ever read back from where the payload wrote.
public final class HealWorkspace: @unchecked Sendable {
    /// The repository as the user named it (read, never written).
    public let repository: String
    /// The private directory holding the snapshot and the trees.
    public let root: String
    /// The snapshot of the repository.
    public var snapshot: String { root + "/base" }
    /// Files in the snapshot (repository-relative paths), for actors.
    public let files: [String]
    private let lock = NSLock()
    private var counter = 0

    /// Directories never copied: version control, caches and Sentinel's own state.
    public static let skipped: Set<String> = [
        ".git", ".hg", ".svn", ".sentinel", "__pycache__", ".pytest_cache", ".mypy_cache", ".tox", ".nox",
        "node_modules", ".venv",
    ]
    /// The most bytes a snapshot holds: heal works on source trees, not data sets.
    public static let maxBytes: Int64 = 512 << 20

    /// Copies `repository` into a new private directory. Symbolic links are copied as links
    /// (never followed); FIFOs, sockets and devices are left out. Throws
    /// `SentinelError(.invalidInput)` when the repository is missing or not a directory.
    public init(repository: String) throws {
        var info = stat()
        guard lstat(repository, &info) == 0 else {
            throw SentinelError(.invalidInput, "\(repository): repository not found")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SentinelError(.invalidInput, "\(repository): repository is not a directory (or is a symbolic link)")
        }
        self.repository = repository
        root = try ScratchDirectory.make(prefix: "sentinel-heal")
        do {
            var files: [String] = []
            var bytes: Int64 = 0
            try Self.copyTree(from: repository, to: root + "/base", relative: "", files: &files, bytes: &bytes)
            self.files = files.sorted()
        } catch {
            try? FileManager.default.removeItem(atPath: root)
            throw error
        }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    /// The content of `path` in the snapshot, when it is a regular UTF-8 file.
    public func read(_ path: String) -> String? {
        guard (try? GitPatch.checkRelative(path)) != nil,
            let data = try? BoundedFile.read(snapshot + "/" + path, limit: 16 << 20, followLinks: false)
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// A new tree: the snapshot with `changes` applied. The caller removes it with `remove`.
    public func tree(applying changes: [FileChange]) throws -> String {
        let name = lock.withLock {
            counter += 1
            return "tree-\(counter)"
        }
        let path = root + "/" + name
        try Self.linkTree(from: snapshot, to: path)
        for change in changes {
            try GitPatch.checkRelative(change.path)
            let file = path + "/" + change.path
            // A link into the snapshot is replaced, never written through.
            unlink(file)
            if let after = change.after {
                let parent = (file as NSString).deletingLastPathComponent
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                let mode = Self.mode(of: snapshot + "/" + change.path) ?? 0o644
                guard FileManager.default.createFile(atPath: file, contents: Data(after.utf8), attributes: [.posixPermissions: mode])
                else { throw SentinelError(.io, "\(file): cannot write candidate file") }
            }
        }
        return path
    }

    /// Removes a tree made by `tree(applying:)`.
    public func remove(_ tree: String) {
        guard tree.hasPrefix(root + "/tree-") else { return }
        try? FileManager.default.removeItem(atPath: tree)
    }

    private static func mode(of path: String) -> Int? {
        var info = stat()
        return lstat(path, &info) == 0 ? Int(info.st_mode & 0o777) : nil
    }

    private static func copyTree(
        from source: String, to target: String, relative: String, files: inout [String], bytes: inout Int64
    ) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
        for name in names where !skipped.contains(name) {
            let from = source + "/" + name
            let to = target + "/" + name
            let path = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(from, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                try copyTree(from: from, to: to, relative: path, files: &files, bytes: &bytes)
            case S_IFREG:
                bytes += Int64(info.st_size)
                guard bytes <= maxBytes else {
                    throw SentinelError(.invalidInput, "\(source): repository larger than \(maxBytes >> 20) MiB")
                }
                let data = try BoundedFile.read(from, limit: Int(maxBytes), followLinks: false)
                guard
                    FileManager.default.createFile(
                        atPath: to, contents: data, attributes: [.posixPermissions: Int(info.st_mode & 0o755)])
                else { throw SentinelError(.io, "\(to): cannot write snapshot file") }
                files.append(path)
            case S_IFLNK:
                let target = try FileManager.default.destinationOfSymbolicLink(atPath: from)
                try FileManager.default.createSymbolicLink(atPath: to, withDestinationPath: target)
            default:
                continue
            }
        }
    }

    private static func linkTree(from source: String, to target: String) throws {
        try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: source) {
            let from = source + "/" + name
            let to = target + "/" + name
            var info = stat()
            guard lstat(from, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try linkTree(from: from, to: to)
            case S_IFLNK:
                try FileManager.default.createSymbolicLink(
                    atPath: to, withDestinationPath: try FileManager.default.destinationOfSymbolicLink(atPath: from))
            default:
                guard link(from, to) == 0 else {
                    throw SentinelError(.io, "\(to): link failed: \(Errno.current)", errno: .current)
                }
            }
        }
    }
}
