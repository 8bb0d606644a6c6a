#if canImport(Glibc)
    import Glibc
#endif

extension TrustedPath {
    /// A directory ``openMaking(_:euid:)`` reached: its descriptor (readable, not `O_PATH`), its
    /// path without links, and its status when it was opened.
    public struct Reached: Sendable {
        /// The directory, opened for reading.
        public let directory: DirectoryDescriptor
        /// Its path from `/` as the walk reached it: every link resolved, `.` and `..` gone.
        public let path: String
        /// Its status (`fstat` of `directory`).
        public let status: stat
    }

    /// The most symbolic links one walk follows (the kernel's own bound, `MAXSYMLINKS`).
    static let linkLimit = 40

    /// Opens the directory `path` (relative: to the working directory) for a user's private
    /// state, one component at a time from `/` by `O_PATH | O_NOFOLLOW` descriptors, holding
    /// every directory *above* it to the rule (root's or `euid`'s, writable by no one else
    /// unless sticky): a user who owns or may write a parent of the state could otherwise swap
    /// the state directory for a link to a directory of root's, and root would make its files
    /// there. The directory itself is the caller's to check (``Reached/status``).
    ///
    /// Where the walk differs from ``directory(_:euid:)``: a missing component is made (mode
    /// 0700, `mkdirat` in the directory checked before it), and a symbolic link is followed when
    /// it is root's or `euid`'s (the directory it sits in passed the rule, so nobody else placed
    /// it; in a sticky `/tmp` only its owner may replace it). A link of anyone else's is refused.
    /// Throws `SentinelError(.untrustedPath)` naming the component and why, `.io` when a
    /// component cannot be made or opened.
    public static func openMaking(_ path: String, euid: uid_t = geteuid()) throws(SentinelError) -> Reached {
        var absolute = path
        if !path.hasPrefix("/") {
            guard let cwd = getcwd(nil, 0) else {
                throw SentinelError(.io, "\(path): cannot tell the working directory: \(Errno.current)", errno: .current)
            }
            absolute = String(cString: cwd) + "/" + path
            free(cwd)
        }
        var chain: [DirectoryChain.Link] = []
        do throws(Errno) {
            let top = try DirectoryDescriptor.workingDirectory.openDirectory("/", pathOnly: true)
            chain.append(DirectoryChain.Link(path: "/", directory: top, status: try top.status()))
        } catch {
            throw SentinelError(.io, "/: cannot open: \(error)", errno: error)
        }
        var pending = components(of: absolute).reversed() as [String]
        var links = 0
        while let name = pending.popLast() {
            if name == "." { continue }
            if name == ".." {
                if chain.count > 1 { chain.removeLast() }
                continue
            }
            let parent = chain[chain.count - 1]
            try check(parent.path, parent.status, euid: euid, above: true)
            let childPath = (parent.path == "/" ? "" : parent.path) + "/" + name
            let entry: stat?
            do throws(Errno) {
                entry = try parent.directory.statusIfPresent(of: name)
                if entry == nil { try parent.directory.makeDirectory(name, mode: 0o700) }
            } catch {
                throw SentinelError(.io, "\(childPath): mkdir failed: \(error)", errno: error)
            }
            if let entry, entry.st_mode & S_IFMT == S_IFLNK {
                guard entry.st_uid == 0 || entry.st_uid == euid else {
                    throw SentinelError(
                        .untrustedPath, "\(childPath) is a symbolic link owned by uid \(entry.st_uid), not by root or uid \(euid)")
                }
                links += 1
                guard links <= linkLimit else {
                    throw SentinelError(
                        .untrustedPath, "\(childPath): more than \(linkLimit) symbolic links", errno: Errno(rawValue: ELOOP))
                }
                let target: String
                do throws(Errno) {
                    target = try parent.directory.linkTarget(name).withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
                } catch {
                    throw SentinelError(.io, "\(childPath): readlink failed: \(error)", errno: error)
                }
                if target.hasPrefix("/") { chain.removeSubrange(1...) }
                pending += components(of: target).reversed()
                continue
            }
            do throws(Errno) {
                let child = try parent.directory.openDirectory(name, pathOnly: true)
                chain.append(DirectoryChain.Link(path: childPath, directory: child, status: try child.status()))
            } catch {
                let reason = error.rawValue == ENOTDIR ? "exists and is not a directory" : "cannot open: \(error)"
                throw SentinelError(.io, "\(childPath): \(reason)", errno: error)
            }
        }
        let last = chain[chain.count - 1]
        do throws(Errno) {
            let directory = try last.directory.reopened()
            return Reached(directory: directory, path: last.path, status: try directory.status())
        } catch {
            throw SentinelError(.io, "\(last.path): cannot open: \(error)", errno: error)
        }
    }

    /// The components of `path`, empty ones (repeated slashes) dropped.
    private static func components(of path: String) -> [String] {
        path.split(separator: "/").map(String.init)
    }
}
