import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Creates directories for state that belongs to one user: each missing component is made with
/// mode 0700 in the `mkdir` call itself (no window with wider permissions), and directories that
/// exist already (`/tmp`, a user's `$SENTINEL_HOME`) are left exactly as they are.
///
/// The directory itself must be the user's (or root's) and writable by no one else, as ssh's
/// `StrictModes` wants of `~/.ssh`: in one another user may write, she could plant links at the
/// names Sentinel is about to create, and root would create its files where she chose. Its
/// parents are not checked (`/tmp` is everyone's, and sticky).
public enum PrivateDirectory {
    /// Creates `path` and any missing parent; throws naming the component that could not be made
    /// or that exists as something other than a directory, and `.invalidInput` (exit status 2)
    /// naming `path` when it is not private (see the type).
    public static func create(_ path: String) throws {
        _ = try open(path)
    }

    /// Creates `path` as `create` does and opens it (a link the operator named there is followed),
    /// after checking the opened directory: what is checked is what the caller then works in.
    public static func open(_ path: String) throws -> DirectoryDescriptor {
        try makeMissingComponents(path)
        let directory: DirectoryDescriptor
        let info: stat
        do throws(Errno) {
            directory = try DirectoryDescriptor.workingDirectory.openDirectory(path, followingLinks: true)
            info = try directory.status()
        } catch {
            throw SentinelError(.io, "\(path): cannot open: \(error)", errno: error)
        }
        if let problem = problem(owner: info.st_uid, mode: info.st_mode, user: geteuid()) {
            throw SentinelError(.invalidInput, "\(path): \(problem)")
        }
        return directory
    }

    /// Why a directory of `owner` and `mode` may not hold the state of `user`, or nil when it may.
    static func problem(owner: uid_t, mode: mode_t, user: uid_t) -> String? {
        // Root may write anywhere anyway: a root-owned directory adds no one.
        if owner != user && owner != 0 {
            return "owned by uid \(owner), not by you (uid \(user)): another user could plant links in it; "
                + "keep state in a directory of your own"
        }
        if mode & (S_IWGRP | S_IWOTH) != 0 {
            return "group or others may write it (mode \(String(mode & 0o7777, radix: 8))): anyone could plant links in it; "
                + "chmod go-w it or keep state elsewhere"
        }
        return nil
    }

    private static func makeMissingComponents(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + component
            if mkdir(prefix, 0o700) == 0 { continue }
            let failure = Errno.current
            var info = stat()
            // EEXIST, or EACCES for a component we may search but not write (`/home`).
            guard stat(prefix, &info) == 0 else {
                throw SentinelError(.io, "\(prefix): mkdir failed: \(failure)", errno: failure)
            }
            guard info.st_mode & S_IFMT == S_IFDIR else {
                throw SentinelError(.io, "\(prefix): exists and is not a directory", errno: Errno(rawValue: ENOTDIR))
            }
        }
    }
}
