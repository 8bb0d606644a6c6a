import Foundation
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The paths `sentinel scan` was given, resolved: the root findings are relative to, and the
/// targets (absolute) the scan covers. One directory is its own root, as before; files and
/// several paths (what pre-commit hooks pass) keep the paths as typed when all are relative and
/// lie under the current directory, else they are relative to their deepest common directory.
public struct ScanPaths: Sendable, Hashable {
    /// Absolute; every target lies under it.
    public var root: String
    /// Absolute, standardized, in the order given.
    public var targets: [String]

    /// Resolves `paths` against `currentDirectory`.
    /// - Throws: `SentinelError(.invalidInput, "PATH: no such file or directory")` for the first
    ///   path that does not exist.
    public static func resolve(_ paths: [String], currentDirectory: String = FileManager.default.currentDirectoryPath)
        throws -> ScanPaths
    {
        let given = paths.isEmpty ? ["."] : paths
        var targets: [String] = []
        for path in given {
            let absolute = path.hasPrefix("/") ? path : (currentDirectory as NSString).appendingPathComponent(path)
            let standardized = URL(fileURLWithPath: absolute).standardizedFileURL.path
            var info = stat()
            guard lstat(standardized, &info) == 0 else {
                throw SentinelError(.invalidInput, "\(path): no such file or directory")
            }
            if !targets.contains(standardized) { targets.append(standardized) }
        }
        if targets.count == 1, isDirectory(targets[0]) {
            return ScanPaths(root: targets[0], targets: targets)
        }
        let cwd = URL(fileURLWithPath: currentDirectory).standardizedFileURL.path
        // Relative paths are shown as typed; absolute ones relative to their common directory.
        if given.allSatisfy({ !$0.hasPrefix("/") }), targets.allSatisfy({ contains(cwd, $0) }) {
            return ScanPaths(root: cwd, targets: targets)
        }
        let directories = targets.map { isDirectory($0) ? $0 : PathText.directory(of: $0) }
        var common = directories[0]
        for directory in directories.dropFirst() {
            while !contains(common, directory) { common = PathText.directory(of: common) }
        }
        return ScanPaths(root: common, targets: targets)
    }

    /// The directory scanned, or the one holding the scanned file: where `.sentinel.yml`, the
    /// git repository and SARIF's root are looked for.
    public var directory: String { Self.isDirectory(root) ? root : PathText.directory(of: root) }

    /// Whether the scan is one whole directory (rather than named files or several paths).
    public var isWholeDirectory: Bool { targets == [root] }

    private static func contains(_ directory: String, _ path: String) -> Bool {
        directory == "/" || path == directory || path.hasPrefix(directory + "/")
    }

    private static func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
