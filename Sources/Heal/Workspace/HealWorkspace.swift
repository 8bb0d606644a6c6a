#if canImport(Glibc)
    import Glibc
#endif
import Digest
import Foundation
import Git
import Support
import Synchronization

/// Where candidates are tried. The repository is read once into a private snapshot (a 0700
/// directory of the launcher's); each candidate gets a tree of hard links to the snapshot with
/// its changed files written as new inodes, so trees cost little and the snapshot never changes.
/// A tree is the overlay workspace's lower layer: whatever the tests write goes to the
/// sandbox's upper layer and is thrown away, so nothing the payload does reaches a tree, the
/// snapshot or the repository, and nothing is ever read back from where the payload wrote.
public final class HealWorkspace: Sendable {
    /// The repository as the user named it (read, never written).
    public let repository: String
    /// The private directory holding the snapshot and the trees.
    public let root: String
    /// The snapshot of the repository.
    public var snapshot: String { root + "/base" }
    /// Files in the snapshot (repository-relative paths), for actors.
    public let files: [String]
    /// The snapshot's content as one SHA-256 (hex): every file's path, executable bit and bytes,
    /// every link's path and target, every directory's path. Two snapshots with the same digest
    /// give a command the same tree (the baseline cache's key, ``HealMemory/baseline(_:)``).
    public let digest: String
    /// Directories of the repository nested deeper than `maxDepth` (paths ending in `/`): not
    /// copied, so not in the snapshot. The heal reports them in its notes.
    public let tooDeep: [String]
    private let fileSet: Set<String>
    /// Trees made so far, for the next tree's name.
    private let counter = Mutex(0)

    /// Directories never copied: version control, caches and Sentinel's own state.
    public static let skipped: Set<String> = [
        ".git", ".hg", ".svn", ".sentinel", "__pycache__", ".pytest_cache", ".mypy_cache", ".tox", ".nox",
        "node_modules", ".venv",
    ]
    /// How many directories deep the snapshot goes: real source trees stay far shallower.
    public static let maxDepth = 256
    /// The most bytes a snapshot holds: heal works on source trees, not data sets.
    public static let maxBytes: Int64 = 512 << 20

    /// Copies `repository` into a new private directory. Symbolic links are copied as links
    /// (never followed); FIFOs, sockets and devices are left out. Throws
    /// `SentinelError(.invalidInput)` when the repository is missing or not a directory (a link
    /// included, unless it is a descriptor path, `/proc/PID/fd/N`: the directory a fleet worker
    /// checked and holds open, not a link the tree's owner chose).
    /// `base`: where the private directory is made (a state directory's `tmp`; nil: `$TMPDIR`).
    /// A base inside the repository is never copied into its own snapshot.
    public init(repository: String, in base: String? = nil) throws {
        var info = stat()
        let held = DirectoryDescriptor.isDescriptorPath(repository)
        guard (held ? stat(repository, &info) : lstat(repository, &info)) == 0 else {
            throw SentinelError(.invalidInput, "\(repository): repository not found")
        }
        guard info.st_mode & S_IFMT == S_IFDIR else {
            throw SentinelError(.invalidInput, "\(repository): repository is not a directory (or is a symbolic link)")
        }
        self.repository = repository
        root = try ScratchDirectory.make(prefix: "sentinel-heal", in: base)
        do {
            var files: [String] = []
            var bytes: Int64 = 0
            var entries: [String] = []
            var scratch = stat()
            let own = (base ?? root).withCString { lstat($0, &scratch) } == 0 ? Identity(scratch) : nil
            tooDeep = try Self.copyTree(
                from: repository, to: root + "/base", leavingOut: own, files: &files, bytes: &bytes, entries: &entries)
            self.files = files.sorted()
            // The records in one order whatever order the directories were read in.
            digest = SHA256.hex(entries.sorted().joined())
            fileSet = Set(files)
        } catch {
            ScratchDirectory.remove(root)
            throw error
        }
    }

    deinit { ScratchDirectory.remove(root) }

    /// The content of `path` in the snapshot, when it is one of `files` (a regular file reached
    /// through real directories: a repository's links are never followed) and UTF-8.
    public func read(_ path: String) -> String? {
        guard fileSet.contains(path), (try? GitPatch.checkRelative(path)) != nil,
            let data = try? BoundedFile.read(snapshot + "/" + path, limit: 16 << 20, followLinks: false)
        else { return nil }
        return String(data: data, encoding: .utf8)
    }

    /// A new tree: the snapshot with `changes` applied. The caller removes it with `remove`.
    public func tree(applying changes: [FileChange]) throws -> String {
        let name = counter.withLock { counter in
            counter += 1
            return "tree-\(counter)"
        }
        let path = root + "/" + name
        do {
            try Self.linkTree(from: snapshot, to: path)
            for change in changes {
                try GitPatch.checkRelative(change.path)
                try Self.write(change, into: path)
            }
        } catch {
            try? FileManager.default.removeItem(atPath: path)
            throw error
        }
        return path
    }

    /// Writes one change below `tree` relative to the tree's own descriptor: every directory on
    /// the way is opened with `O_NOFOLLOW` (a link the repository planted is refused, never
    /// followed), the old entry is unlinked, never written through (it may be a hard link into
    /// the snapshot), and the new file is created exclusively.
    private static func write(_ change: FileChange, into tree: String) throws {
        var components = change.path.split(separator: "/").map(String.init)
        let name = components.removeLast()
        var directory: DirectoryDescriptor
        do throws(Errno) {
            directory = try DirectoryDescriptor.workingDirectory.openDirectory(tree)
        } catch {
            throw SentinelError(.io, "\(tree): cannot open candidate tree: \(error)")
        }
        for component in components {
            let parent = directory
            let openComponent = { () throws(Errno) in try parent.openDirectory(component) }
            var next = Result(catching: openComponent)
            if case .failure(let missing) = next, missing.rawValue == ENOENT, change.after != nil {
                let make = { () throws(Errno) in try parent.makeDirectory(component, mode: 0o755) }
                if case .failure(let failure) = Result(catching: make), failure.rawValue != EEXIST {
                    throw SentinelError(.io, "\(change.path): cannot make \(component): \(failure)")
                }
                next = Result(catching: openComponent)
            }
            guard case .success(let opened) = next else {
                throw SentinelError(
                    .invalidInput, "\(change.path): \(component) is not a directory of the repository (a link is never followed)")
            }
            directory = opened
        }
        var mode: mode_t = 0o644
        if let info = try? directory.status(of: name) {
            guard info.st_mode & S_IFMT != S_IFDIR else {
                throw SentinelError(.invalidInput, "\(change.path): is a directory")
            }
            if info.st_mode & S_IFMT == S_IFREG { mode = info.st_mode & 0o755 }
            do throws(Errno) {
                try directory.remove(name)
            } catch {
                throw SentinelError(.io, "\(change.path): cannot replace: \(error)")
            }
        }
        guard let after = change.after else { return }
        let fd: Int32
        do throws(Errno) {
            fd = try directory.openFile(name, flags: O_WRONLY | O_CREAT | O_EXCL, mode: mode)
        } catch {
            throw SentinelError(.io, "\(change.path): cannot create: \(error)")
        }
        defer { close(fd) }
        let bytes = Array(after.utf8)
        if let failure = bytes.withUnsafeBytes({ writeAll(fd, $0) }) {
            throw SentinelError(.io, "\(change.path): cannot write: \(failure)", errno: failure)
        }
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

    /// Copies the repository on an explicit stack, never recursing: depth is the repository
    /// owner's to choose. Directories nested deeper than `maxDepth` are not copied; their paths
    /// (ending in `/`) are returned, in the order met.
    /// A directory by device and inode.
    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    /// `leavingOut`: the directory the snapshot is made in, never copied into itself.
    /// `entries`: one record per directory, file and link copied, for ``digest``: the kind, the
    /// path (NUL-terminated: a name may hold any other byte) and what the copy holds.
    private static func copyTree(
        from repository: String, to snapshot: String, leavingOut own: Identity?, files: inout [String], bytes: inout Int64,
        entries: inout [String]
    ) throws -> [String] {
        var skippedDirectories: [String] = []
        // (source, target, repository-relative path, depth below the repository)
        var pending = [(repository, snapshot, "", 0)]
        while let (source, target, relative, depth) = pending.popLast() {
            if depth > maxDepth {
                skippedDirectories.append(relative + "/")
                continue
            }
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
            let names = try FileManager.default.contentsOfDirectory(atPath: source).sorted()
            for name in names.reversed() where !skipped.contains(name) {
                let from = source + "/" + name
                let to = target + "/" + name
                let path = relative.isEmpty ? name : relative + "/" + name
                var info = stat()
                guard lstat(from, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR:
                    if let own, Identity(info) == own { continue }
                    pending.append((from, to, path, depth + 1))
                    entries.append("d \(path)\u{0}\n")
                case S_IFREG:
                    bytes += Int64(info.st_size)
                    guard bytes <= maxBytes else {
                        throw SentinelError(.invalidInput, "\(repository): repository larger than \(maxBytes >> 20) MiB")
                    }
                    let data = try BoundedFile.read(from, limit: Int(maxBytes), followLinks: false)
                    try PreparedOutputFile(path: to).write(data, mode: info.st_mode & 0o755)
                    files.append(path)
                    let executable = info.st_mode & 0o111 != 0 ? "x" : "-"
                    entries.append("f \(path)\u{0}\(executable) \(SHA256.hex(data))\n")
                case S_IFLNK:
                    let target = try FileManager.default.destinationOfSymbolicLink(atPath: from)
                    try FileManager.default.createSymbolicLink(atPath: to, withDestinationPath: target)
                    entries.append("l \(path)\u{0}\(target)\u{0}\n")
                default:
                    continue
                }
            }
        }
        return skippedDirectories
    }

    /// A tree of hard links to the snapshot, made on an explicit stack like the snapshot itself.
    private static func linkTree(from snapshot: String, to tree: String) throws {
        var pending = [(snapshot, tree)]
        while let (source, target) = pending.popLast() {
            try FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: false)
            for name in try FileManager.default.contentsOfDirectory(atPath: source) {
                let from = source + "/" + name
                let to = target + "/" + name
                var info = stat()
                guard lstat(from, &info) == 0 else { continue }
                switch info.st_mode & S_IFMT {
                case S_IFDIR: pending.append((from, to))
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
}
