#if canImport(Glibc)
    import Glibc
#endif
import Findings
import Foundation
import Git
import Support

/// What SARIF URIs are relative to: the repository root (`--sarif-root DIR`, else the git top
/// level of the scanned directory, else the scanned directory itself), and where the scanned
/// directory is below it. GitHub code scanning resolves URIs against the repository root, so
/// `scan services/api` must write `services/api/app.py`, not `app.py`.
public enum SARIFRoot {
    /// Errors name the root (`DIR: no such directory`); the caller adds where it came from.
    /// - Returns: the absolute root and the scanned directory's path below it (`""` when equal).
    public static func resolve(scanDirectory: String, explicit: String?) throws -> (root: String, prefix: String) {
        let directory = OutputPlacement.realPath(scanDirectory) ?? scanDirectory
        let root: String
        if let explicit {
            guard let resolved = OutputPlacement.realPath(explicit) else {
                throw SentinelError(.invalidInput, "\(explicit): no such directory")
            }
            root = resolved
        } else {
            root = gitTopLevel(of: directory) ?? directory
        }
        let prefix = Location.relativePath(directory, root: root)
        if prefix == "." { return (root, "") }
        guard !prefix.hasPrefix("/") else {
            throw SentinelError(.invalidInput, "\(explicit ?? root): does not contain the scanned directory \(scanDirectory)")
        }
        return (root, prefix)
    }

    /// The top level of the git work tree `directory` is in (no git run: the nearest ancestor
    /// with a `.git`), or nil outside one.
    static func gitTopLevel(of directory: String) -> String? {
        GitWorkTree.containing(directory)?.root
    }
}
