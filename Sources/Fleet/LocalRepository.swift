#if canImport(Glibc)
    import Glibc
#endif
import Support

/// A job's local repository (a path, or a `file://` URL), opened once by the worker and handed to
/// the job by its descriptor.
///
/// Workers fail closed: without `--repository-root` a worker runs no local repository at all
/// (anyone who can submit could otherwise have any directory of the machine scanned, and read
/// snippets and secret prefixes in the findings). With roots, the path is opened from `/` one
/// directory at a time, following no symbolic link (``DirectoryChain``), and it is inside a root
/// when one of the directories on that walk is a root (same device and inode): the walk decides,
/// never a comparison of path strings. The job then gets `/proc/<worker>/fd/<N>`
/// (``DirectoryDescriptor/descriptorPath``), which resolves through the held descriptor on every
/// use, so a component renamed or swapped for a link after the check changes nothing.
struct LocalRepository {
    /// The directory, open for as long as this value lives (the job's run).
    let directory: DirectoryDescriptor
    /// Its path as the walk reached it, for the job's record.
    let path: String

    /// What the job's processes are given for it.
    var heldPath: String { directory.descriptorPath }

    /// Opens `path` (absolute, from `repository` as the job names it) if it is a directory inside
    /// one of `roots` (real paths) on worker `worker`. Throws `SentinelError(.invalidInput)` why not.
    static func open(_ path: String, repository: String, roots: [String], worker: String) throws -> LocalRepository {
        guard !roots.isEmpty else {
            throw SentinelError(
                .invalidInput,
                "\(repository): this worker runs no local repository: it was started without --repository-root (a job may name a remote URL)"
            )
        }
        let outside = "\(repository): outside this worker's repository roots (\(roots.joined(separator: ", ")))"
        // git decodes %-escapes in file:// URLs: what it would open is not what is checked here.
        guard path.hasPrefix("/"), !path.contains("%") else { throw SentinelError(.invalidInput, outside) }
        let rootDirectories = roots.compactMap { root in
            try? DirectoryDescriptor.workingDirectory.openDirectory(root, pathOnly: true, followingLinks: true).status()
        }
        let chain: DirectoryChain
        do throws(DirectoryChain.Failure) {
            chain = try DirectoryChain(opening: path)
        } catch {
            // Below a root, say what is wrong; elsewhere only that it is outside (nothing about the rest of the machine).
            guard rootDirectories.contains(where: { root in error.reached.contains { $0.isSame(as: root) } }) else {
                throw SentinelError(.invalidInput, outside)
            }
            if error.isLink { throw SentinelError(.invalidInput, "\(outside): \(error.path) is a symbolic link, which is not followed") }
            if error.errno.rawValue == ENOENT || error.errno.rawValue == ENOTDIR {
                throw SentinelError(.invalidInput, "\(repository): no such directory on worker \(worker)")
            }
            throw SentinelError(
                .invalidInput, "\(repository): cannot open \(error.path) on worker \(worker): \(error.errno)", errno: error.errno)
        }
        guard rootDirectories.contains(where: chain.contains) else { throw SentinelError(.invalidInput, outside) }
        do throws(Errno) {
            return LocalRepository(directory: try chain.last.directory.reopened(), path: chain.last.path)
        } catch {
            throw SentinelError(.invalidInput, "\(repository): cannot open on worker \(worker): \(error)", errno: error)
        }
    }
}
