#if canImport(Glibc)
    import Glibc
#endif

/// An absolute path opened one directory at a time from `/`, each by a single component relative
/// to the one before, never through a symbolic link (`O_PATH | O_DIRECTORY | O_NOFOLLOW`): what
/// is looked at of a directory (its `status`) is the directory the next one is opened from, and
/// no name is resolved twice. `..` steps back to the directory the walk held before (not the
/// kernel's `..` of the current one, which a directory moved meanwhile would make another); `.`
/// and repeated slashes are skipped.
///
/// The walk decides by descriptors what a string comparison of paths would get wrong: whether a
/// directory lies below another (``contains(_:)``), and who owns each directory on the way
/// (``TrustedPath``).
public struct DirectoryChain: Sendable {
    /// One directory of the chain.
    public struct Link: Sendable {
        /// Its path as the walk spelled it (`/` first, `..` resolved).
        public let path: String
        /// The directory, an `O_PATH` descriptor.
        public let directory: DirectoryDescriptor
        /// Its status when it was opened (`fstat` of `directory`).
        public let status: stat

        /// Whether this is the directory `other` is (same device and inode).
        public func isSame(as other: stat) -> Bool { status.st_dev == other.st_dev && status.st_ino == other.st_ino }
    }

    /// Why the walk stopped.
    public struct Failure: Error, Sendable {
        /// The directories the walk held when it stopped, `/` first.
        public let reached: [Link]
        /// The path of the component it could not open.
        public let path: String
        /// Why: ENOENT, ENOTDIR (a file, or a symbolic link: see `isLink`), EACCES, EINVAL for a
        /// relative path...
        public let errno: Errno
        /// True when that component is a symbolic link.
        public let isLink: Bool
    }

    /// `/` first, the directory the path names last.
    public let links: [Link]

    /// The directory the path names.
    public var last: Link { links[links.count - 1] }

    /// Opens every directory of the absolute `path`. Throws where the walk stopped.
    public init(opening path: String) throws(Failure) {
        var links: [Link] = []
        guard path.hasPrefix("/") else {
            throw Failure(reached: [], path: path, errno: Errno(rawValue: EINVAL), isLink: false)
        }
        do throws(Errno) {
            let top = try DirectoryDescriptor.workingDirectory.openDirectory("/", pathOnly: true)
            links.append(Link(path: "/", directory: top, status: try top.status()))
        } catch {
            throw Failure(reached: [], path: "/", errno: error, isLink: false)
        }
        for component in path.split(separator: "/") where component != "." {
            if component == ".." {
                if links.count > 1 { links.removeLast() }
                continue
            }
            let parent = links[links.count - 1]
            let name = String(component)
            let childPath = (parent.path == "/" ? "" : parent.path) + "/" + name
            do throws(Errno) {
                let child = try parent.directory.openDirectory(name, pathOnly: true)
                links.append(Link(path: childPath, directory: child, status: try child.status()))
            } catch {
                // O_PATH | O_NOFOLLOW | O_DIRECTORY calls a link ENOTDIR, as it does a file: look at which.
                let entry = try? parent.directory.status(of: name)
                let isLink = entry.map { $0.st_mode & S_IFMT == S_IFLNK } ?? false
                throw Failure(reached: links, path: childPath, errno: error, isLink: isLink)
            }
        }
        self.links = links
    }

    /// Whether one of the chain's directories is `directory` (device and inode): then the last
    /// one lies at or below it, since each was opened inside the one before.
    public func contains(_ directory: stat) -> Bool {
        links.contains { $0.isSame(as: directory) }
    }
}
