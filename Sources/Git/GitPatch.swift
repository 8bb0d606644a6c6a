#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Support

/// One file of a change: its content before and after, by repository-relative path.
public struct FileChange: Sendable, Hashable, Codable {
    /// Path relative to the repository root, `/`-separated, never absolute, never `..`.
    public var path: String
    /// The content before; nil when the change adds the file.
    public var before: String?
    /// The content after; nil when the change deletes the file.
    public var after: String?

    /// A change of `path` from `before` to `after` (nil: absent).
    public init(path: String, before: String?, after: String?) {
        self.path = path
        self.before = before
        self.after = after
    }
}

/// Git-format patches made and applied in private scratch repositories, never in the user's.
public enum GitPatch {
    /// The largest file a patch may produce (a source file; far above any real one).
    static let maxResultBytes = 32 << 20

    /// The `git diff` of `changes` with `a/` and `b/` prefixes, as `git apply` takes it on the
    /// original tree. Empty when nothing changes.
    public static func diff(_ changes: [FileChange], context: Int = 3) throws -> String {
        try ScratchDirectory.with { dir in
            try GitRunner.check(["init", "-q", "."], in: dir)
            for change in changes {
                try checkRelative(change.path)
                if let before = change.before { try write(before, to: dir + "/" + change.path) }
            }
            try GitRunner.check(["add", "-A", "."], in: dir)
            for change in changes {
                let file = dir + "/" + change.path
                if let after = change.after {
                    try write(after, to: file)
                    if change.before == nil { try GitRunner.check(["add", "-N", "--", change.path], in: dir) }
                } else {
                    try? FileManager.default.removeItem(atPath: file)
                }
            }
            let data = try GitRunner.check(
                [
                    "diff", "--no-color", "--no-ext-diff", "--no-renames", "--src-prefix=a/", "--dst-prefix=b/",
                    "--unified=\(context)",
                ], in: dir)
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Applies a unified diff to `files` (path → content) and returns every file it touches with
    /// its new content (nil: deleted). Throws `SentinelError(.git)` naming git's complaint when the
    /// diff does not apply cleanly; paths outside the tree are refused.
    public static func apply(_ patch: String, to files: [String: String]) throws -> [FileChange] {
        try ScratchDirectory.with { dir in
            try GitRunner.check(["init", "-q", "."], in: dir)
            for (path, content) in files {
                try checkRelative(path)
                try write(content, to: dir + "/" + path)
            }
            let input = Data(patch.utf8)
            let listed = try GitRunner.check(["apply", "--numstat", "-z", "-"], in: dir, input: input)
            let paths = String(decoding: listed, as: UTF8.self).split(separator: "\0").compactMap { entry -> String? in
                let fields = entry.split(separator: "\t", maxSplits: 2)
                return fields.count == 3 ? String(fields[2]) : nil
            }
            for path in paths { try checkRelative(path) }
            try GitRunner.check(["apply", "--whitespace=nowarn", "-"], in: dir, input: input)
            // Read back beneath the scratch tree without following links: a patch may declare a
            // symbolic link (mode 120000), which `git apply` makes and a path read would follow.
            let tree = try TreeReader(path: dir)
            return try paths.map { path in
                guard tree.exists(path) else { return FileChange(path: path, before: files[path], after: nil) }
                do {
                    let data = try tree.read(path, limit: maxResultBytes)
                    guard let after = String(data: data, encoding: .utf8) else {
                        throw SentinelError(.invalidInput, "\(path): the patched file is not UTF-8 text")
                    }
                    return FileChange(path: path, before: files[path], after: after)
                } catch let error as SentinelError where error.errno?.rawValue == ELOOP {
                    throw SentinelError(.invalidInput, "\(path): the patch makes a symbolic link; only regular files are applied")
                }
            }
        }
    }

    /// Refuses absolute paths, `..` components and `.git` (a patch must stay inside the tree).
    public static func checkRelative(_ path: String) throws {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard !path.isEmpty, !path.hasPrefix("/"), !parts.contains(".."), !parts.contains(""),
            !parts.contains(".git")
        else { throw SentinelError(.invalidInput, "\(path): not a path inside the repository") }
    }

    private static func write(_ text: String, to path: String) throws {
        try PreparedOutputFile(path: path, createParents: true).write(text)
    }
}
