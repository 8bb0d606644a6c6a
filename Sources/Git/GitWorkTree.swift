#if canImport(Glibc)
    import Glibc
#endif
import Support

/// Where a directory's git work tree starts: the nearest ancestor (the directory itself
/// included, links resolved) that has a `.git` entry, a directory or a `gitdir:` file.
///
/// Found without running git and without reading any file of the repository (one `lstat` per
/// ancestor), because git itself runs only in the sandbox, over exactly this tree: the sandbox
/// must be given the top level before git can say where it is.
public struct GitWorkTree: Sendable, Hashable {
    /// The top level, absolute with links resolved.
    public let root: String
    /// The directory's path below `root` (`""` when it is `root`).
    public let subdirectory: String
    /// Whether `root/.git` is the repository's directory itself (not a `gitdir:` file).
    let hasGitDirectory: Bool

    init(root: String, subdirectory: String, hasGitDirectory: Bool = false) {
        self.root = root
        self.subdirectory = subdirectory
        self.hasGitDirectory = hasGitDirectory
    }

    /// The work tree `directory` is in, or nil when it is in none (or does not exist).
    public static func containing(_ directory: String) -> GitWorkTree? {
        guard let real = OutputPlacement.realPath(directory) else { return nil }
        var candidate = real
        while true {
            var info = stat()
            let marker = (candidate == "/" ? "" : candidate) + "/.git"
            if lstat(marker, &info) == 0, info.st_mode & S_IFMT == S_IFDIR || info.st_mode & S_IFMT == S_IFREG {
                let below = candidate == real ? "" : String(real.dropFirst(candidate == "/" ? 1 : candidate.count + 1))
                return GitWorkTree(root: candidate, subdirectory: below, hasGitDirectory: info.st_mode & S_IFMT == S_IFDIR)
            }
            guard candidate != "/" else { return nil }
            candidate = PathText.directory(of: candidate)
            if candidate.isEmpty { candidate = "/" }
        }
    }
}
