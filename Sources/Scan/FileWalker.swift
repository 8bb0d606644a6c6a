#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Lists the files a scan covers: regular files under the root, minus directories no one
/// wants scanned (VCS data, dependencies, build output), filtered by include/exclude globs.
/// Symlinks are not followed, so a scan never leaves its tree.
public struct FileWalker: Sendable {
    public var include: [Glob]
    public var exclude: [Glob]
    /// Directory names skipped wherever they occur.
    public var skippedDirectories: Set<String>
    /// Files larger than this are skipped (generated or minified code, data dumps).
    public var maxFileBytes: Int

    public static let defaultSkippedDirectories: Set<String> = [
        ".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".build", ".sentinel",
        ".tox", ".mypy_cache", ".pytest_cache", "site-packages", ".idea", ".vscode",
    ]

    public init(include: [Glob] = [], exclude: [Glob] = [], skippedDirectories: Set<String> = defaultSkippedDirectories,
                maxFileBytes: Int = 4 << 20) {
        self.include = include
        self.exclude = exclude
        self.skippedDirectories = skippedDirectories
        self.maxFileBytes = maxFileBytes
    }

    /// Relative paths, sorted. A root that is a file yields that file alone.
    public func files(under root: String) -> [String] {
        var info = stat()
        guard lstat(root, &info) == 0 else { return [] }
        if info.st_mode & S_IFMT == S_IFREG {
            return [(root as NSString).lastPathComponent]
        }
        var result: [String] = []
        walk(root, relative: "", into: &result)
        return result.sorted()
    }

    private func walk(_ directory: String, relative: String, into result: inout [String]) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in entries {
            let path = directory + "/" + name
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                if skippedDirectories.contains(name) { continue }
                if exclude.contains(where: { $0.matches(relativePath) && $0.pattern.hasSuffix("/") }) { continue }
                walk(path, relative: relativePath, into: &result)
            case S_IFREG:
                guard info.st_size <= maxFileBytes else { continue }
                if !include.isEmpty && !include.contains(where: { $0.matches(relativePath) }) { continue }
                if exclude.contains(where: { $0.matches(relativePath) }) { continue }
                result.append(relativePath)
            default:
                continue
            }
        }
    }
}
