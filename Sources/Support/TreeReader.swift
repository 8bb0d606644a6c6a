#if canImport(Glibc)
    import Glibc
#endif
import FoundationEssentials
import Synchronization

/// The one way the CLI reads files of a tree it does not own: a scanned repository's lockfiles,
/// requirements includes, config and sources.
///
/// The tree's directory is opened once (the operator named it, so links in its own path are
/// followed). Every file is then opened relative to that descriptor by `openat2` with
/// `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV`: no absolute
/// path, no `..` above the tree, no mount crossed and no symbolic link at all, not even one that
/// stays inside (whoever writes the tree chose it; pip would follow it, Sentinel reports it
/// unread). The kernel resolves the whole path, so a link swapped in between a check and the read
/// is refused too. Only regular files are read (opened `O_NONBLOCK` so a FIFO cannot block the
/// open, then `fstat`), up to a size bound. Errors name the file as the tree names it and the
/// problem, never what a link points at or what a refused file holds.
public final class TreeReader: Sendable {
    /// The tree's path as the caller gave it.
    public let path: String
    private let directory: DirectoryDescriptor
    /// Directories of the tree opened lately, by their path in it: a file is then opened beneath
    /// its own directory (one component) instead of resolving its whole path again, which without
    /// `openat2` (the analysis sandbox's filter refuses it) cost one `openat` per component.
    private let parents = Mutex(ParentCache())

    /// Opens the directory `path`. Throws `SentinelError(.invalidInput)` naming it when it cannot
    /// be opened as a directory.
    public init(path: String) throws {
        do throws(Errno) {
            directory = try DirectoryDescriptor.workingDirectory.openDirectory(path, followingLinks: true)
        } catch {
            throw SentinelError(.invalidInput, "\(path): cannot open directory: \(error)", errno: error)
        }
        self.path = path
    }

    /// The bytes of the regular file at `relative`, at most `limit` of them. Throws
    /// `SentinelError(.invalidInput)` as `RELATIVE: problem` when the path leaves the tree, passes
    /// through a link, is not a regular file or is larger than `limit`.
    public func read(_ relative: String, limit: Int) throws -> Data {
        let file = try openFile(relative)
        defer { close(file) }
        return try BoundedFile.read(fd: file, name: relative, limit: limit)
    }

    /// The first `count` bytes of the regular file at `relative` (all of a shorter one), opened
    /// as `read` opens it, whatever its size. Throws as `read` does.
    public func head(_ relative: String, count: Int) throws -> [UInt8] {
        let file = try openFile(relative)
        defer { close(file) }
        return try BoundedFile.head(fd: file, name: relative, count: count)
    }

    /// The first `head` and last `tail` bytes of the regular file at `relative` and its size,
    /// opened as `read` opens it, whatever its size. Throws as `read` does.
    public func ends(_ relative: String, head: Int, tail: Int) throws -> FileEnds {
        let file = try openFile(relative)
        defer { close(file) }
        return try BoundedFile.ends(fd: file, name: relative, head: head, tail: tail)
    }

    /// Whether something (of any kind, a link included) sits at `relative` inside the tree.
    public func exists(_ relative: String) -> Bool {
        do throws(Errno) {
            close(try directory.openFile(relative, flags: LinuxFlags.openPathOnly, beneath: true))
            return true
        } catch {
            return error.rawValue != ENOENT && error.rawValue != ENOTDIR
        }
    }

    /// Nil when `relative` names something (of any kind, a directory too) inside the tree reached
    /// without a link; else why not, as `read` words it (for a config naming a path in the tree).
    public func problem(reaching relative: String) -> String? {
        let file: Int32
        do throws(Errno) {
            file = try directory.openFile(relative, flags: LinuxFlags.openPathOnly, beneath: true)
        } catch {
            return Self.problem(error)
        }
        defer { close(file) }
        // O_PATH | O_NOFOLLOW opens a final link itself rather than failing: look at what it is.
        var info = stat()
        guard fstat(file, &info) == 0 else { return Self.problem(Errno.current) }
        return info.st_mode & S_IFMT == S_IFLNK ? Self.problem(Errno(rawValue: ELOOP)) : nil
    }

    private func openFile(_ relative: String) throws -> Int32 {
        do throws(Errno) {
            guard let slash = relative.lastIndex(of: "/"), slash != relative.startIndex else {
                return try directory.openFile(relative, flags: O_RDONLY | O_NONBLOCK, beneath: true)
            }
            // A parent that cannot be held (a link, a file, missing) is reached the whole way
            // again, so that the refusal says what the whole path's resolution says.
            guard let parent = try? parentDirectory(String(relative[..<slash])) else {
                return try directory.openFile(relative, flags: O_RDONLY | O_NONBLOCK, beneath: true)
            }
            return try parent.openFile(String(relative[relative.index(after: slash)...]), flags: O_RDONLY | O_NONBLOCK, beneath: true)
        } catch {
            throw SentinelError(.invalidInput, "\(relative): \(Self.problem(error))", errno: error)
        }
    }

    /// The directory `relative` of the tree (opened beneath it, no link, no mount crossed), from
    /// the cache or opened now. The cache holds references: one evicted while another thread
    /// opens beneath it stays open until that thread is done.
    private func parentDirectory(_ relative: String) throws(Errno) -> DirectoryDescriptor {
        if let held = parents.withLock({ $0.entries[relative] }) { return held }
        let opened = try directory.openDirectory(relative, beneath: true, pathOnly: true)
        parents.withLock { $0.insert(opened, at: relative) }
        return opened
    }

    /// At most `capacity` directories, the oldest dropped first (a scan reads a directory's files together).
    struct ParentCache: ~Copyable {
        static let capacity = 64
        var entries: [String: DirectoryDescriptor] = [:]
        var order: [String] = []

        mutating func insert(_ directory: DirectoryDescriptor, at relative: String) {
            guard entries.updateValue(directory, forKey: relative) == nil else { return }
            order.append(relative)
            if order.count > Self.capacity { entries[order.removeFirst()] = nil }
        }
    }

    private static func problem(_ failure: Errno) -> String {
        switch failure.rawValue {
        case ELOOP: "is or passes through a symbolic link, which is not followed in a scanned tree"
        case EXDEV: "lies outside the scanned tree (or across a mount point); not followed"
        case ENOENT: "does not exist"
        case ENOTDIR: "a part of the path is not a directory"
        default: "cannot open: \(failure)"
        }
    }
}
