import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Creates directories for state that belongs to one user: each missing component is made with
/// mode 0700 in the `mkdir` call itself (no window with wider permissions), and directories that
/// exist already (`/tmp`, a user's `$SENTINEL_HOME`) are left exactly as they are.
public enum PrivateDirectory {
    /// Creates `path` and any missing parent; throws naming the component that could not be made
    /// or that exists as something other than a directory.
    public static func create(_ path: String) throws {
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
