import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Creates directories for state that belongs to one user: each missing component is made with
/// mode 0700 in the `mkdirat` call itself (no window with wider permissions), and directories that
/// exist already (`/tmp`, a user's `$SENTINEL_HOME`) are left exactly as they are.
///
/// The directory itself must be the user's (or root's) and writable by no one else, as ssh's
/// `StrictModes` wants of `~/.ssh`: in one another user may write, she could plant links at the
/// names Sentinel is about to create, and root would create its files where she chose. Every
/// directory above it is held to ``TrustedPath``'s rule, walked from `/` by descriptor
/// (``TrustedPath/openMaking(_:euid:)``): one she owns or may write (other than a sticky one
/// such as `/tmp`) would let her swap the state directory itself for a link to a directory of
/// root's (issue 78, W2). Links of root's or the user's own are followed; anyone else's are not.
public enum PrivateDirectory {
    /// Creates `path` and any missing parent; throws naming the component that could not be made
    /// or that exists as something other than a directory, and `.invalidInput` (exit status 2)
    /// naming `path` when it is not private (see the type).
    public static func create(_ path: String) throws {
        _ = try open(path)
    }

    /// Creates `path` as `create` does and opens it, after checking the opened directory and
    /// every directory above it: what is checked is what the caller then works in.
    public static func open(_ path: String) throws -> DirectoryDescriptor {
        let user = geteuid()
        let reached = try walk(path, user: user)
        if let problem = problem(owner: reached.status.st_uid, mode: reached.status.st_mode, user: user) {
            throw SentinelError(.invalidInput, "\(path): \(problem)")
        }
        return reached.directory
    }

    /// `path` walked from `/` (``TrustedPath/openMaking(_:euid:)``); a directory above it that
    /// fails the rule is refused as the state's own problem (`.invalidInput`, exit status 2).
    private static func walk(_ path: String, user: uid_t) throws -> TrustedPath.Reached {
        let walked = Result { () throws(SentinelError) in try TrustedPath.openMaking(path, euid: user) }
        if case .failure(let error) = walked, error.code == .untrustedPath {
            throw SentinelError(
                .invalidInput,
                "\(path): \(error.message): whoever may change a directory above the state could swap it; keep state in a directory of your own"
            )
        }
        return try walked.get()
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
}
