#if canImport(Glibc)
    import Glibc
#endif

extension SentinelError.Code {
    /// A program or data file the process would use could have been placed or changed by another
    /// user (``TrustedPath``): refused (exit status 2).
    public static let untrustedPath = SentinelError.Code("untrusted-path", exitStatus: 2)
}

/// Whether a program the process would run, or a directory it would take its configuration from,
/// could have been placed or changed by someone other than root and the effective user, as `sudo`
/// checks its plugins and sudoers and ssh's StrictModes a user's keys. A copy of Sentinel in a
/// tree another user owns must not run her `sentinel-cli` or read her profiles and rules as root.
///
/// The rule. The path is walked from `/` one directory at a time by descriptor
/// (``DirectoryChain``), following no symbolic link. Every component, the file or directory
/// itself included, must be owned by root or the effective user and writable by neither its group
/// nor others. One exception, for the directories above the candidate only: a sticky directory
/// (`S_ISVTX`) owned by root or the effective user may be writable by anyone (`/tmp`, 1777 root).
/// In a sticky directory only an entry's owner, the directory's owner and root may rename or
/// remove the entry, so nobody else can swap the next component, which is itself held to the
/// whole rule. Hence a tree root made under `/tmp` passes, and a tree another user made there
/// (its first directory is hers), or root's copy inside a directory she owns, does not. The
/// candidate itself may not be such a directory: anyone could add files to it.
///
/// Checked on descriptors, then used by name: that is safe exactly because nobody but root and
/// the effective user can change any component of a path that passed.
public enum TrustedPath {
    /// What every component must satisfy, as messages end with it.
    public static func rule(euid: uid_t = geteuid()) -> String {
        "it and every directory above it must belong to root or uid \(euid) and be writable by no one else"
    }

    /// Opens the directory `path` when it passes the rule for `euid`. Throws
    /// `SentinelError(.untrustedPath)` whose message names the first component that fails and why
    /// (`/tmp/x is owned by uid 65534, not by root or uid 0`).
    @discardableResult
    public static func directory(_ path: String, euid: uid_t = geteuid()) throws(SentinelError) -> DirectoryDescriptor {
        let chain = try walk(path)
        for (index, link) in chain.links.enumerated() {
            try check(link.path, link.status, euid: euid, above: index < chain.links.count - 1)
        }
        return chain.last.directory
    }

    /// Checks the regular file `path` and every directory above it against the rule for `euid`;
    /// throws as ``directory(_:euid:)`` does.
    public static func checkFile(_ path: String, euid: uid_t = geteuid()) throws(SentinelError) {
        let name = PathText.lastComponent(of: path)
        guard path.hasPrefix("/"), !name.isEmpty, name != ".", name != ".." else {
            throw SentinelError(.untrustedPath, "\(path) is not an absolute path to a file")
        }
        let chain = try walk(PathText.directory(of: path))
        for link in chain.links { try check(link.path, link.status, euid: euid, above: true) }
        let entry: stat
        do throws(Errno) {
            entry = try chain.last.directory.status(of: name)
        } catch {
            throw SentinelError(.untrustedPath, error.rawValue == ENOENT ? "\(path) does not exist" : "\(path): \(error)", errno: error)
        }
        switch entry.st_mode & S_IFMT {
        case S_IFREG: try check(path, entry, euid: euid, above: false)
        case S_IFLNK: throw SentinelError(.untrustedPath, "\(path) is a symbolic link")
        default: throw SentinelError(.untrustedPath, "\(path) is not a regular file")
        }
    }

    private static func walk(_ path: String) throws(SentinelError) -> DirectoryChain {
        do throws(DirectoryChain.Failure) {
            return try DirectoryChain(opening: path)
        } catch {
            let message =
                switch error.errno.rawValue {
                case _ where error.isLink: "\(error.path) is a symbolic link"
                case ENOENT: "\(error.path) does not exist"
                case ENOTDIR: "\(error.path) is not a directory"
                default: "\(error.path): \(error.errno)"
                }
            throw SentinelError(.untrustedPath, message, errno: error.errno)
        }
    }

    /// `above`: a directory above the candidate, which may be sticky and writable by anyone.
    static func check(_ path: String, _ status: stat, euid: uid_t, above: Bool) throws(SentinelError) {
        guard status.st_uid == 0 || status.st_uid == euid else {
            throw SentinelError(.untrustedPath, "\(path) is owned by uid \(status.st_uid), not by root or uid \(euid)")
        }
        let writable = status.st_mode & 0o022
        guard writable == 0 || (above && status.st_mode & S_ISVTX != 0) else {
            let who = writable == 0o022 ? "its group and others" : writable == 0o020 ? "its group" : "others"
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw SentinelError(.untrustedPath, "\(path) is writable by \(who) (mode \(mode))")
        }
    }
}
