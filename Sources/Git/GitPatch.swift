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
    ///
    /// One sandboxed git run over the scratch tree, read-only: the files before are written to
    /// `before/`, those after to `after/`, and a repository in the sandbox's own `/tmp` indexes
    /// `before/` and is diffed against `after/` as its work tree (new files marked intent-to-add,
    /// so that they show as additions).
    public static func diff(_ changes: [FileChange], context: Int = 3) throws -> String {
        try ScratchDirectory.with { dir in
            var added: [String] = []
            do throws(Errno) {
                let scratch = try DirectoryDescriptor.workingDirectory.openDirectory(dir)
                try scratch.makeDirectory("before", mode: 0o700)
                try scratch.makeDirectory("after", mode: 0o700)
            } catch {
                throw SentinelError(.io, "\(dir): cannot make the diff's trees: \(error)", errno: error)
            }
            for change in changes {
                try checkRelative(change.path)
                if let before = change.before { try write(before, to: dir + "/before/" + change.path) }
                if let after = change.after { try write(after, to: dir + "/after/" + change.path) }
                if change.before == nil, change.after != nil { added.append(change.path) }
            }
            let steps = """
                export GIT_DIR=/tmp/index.git
                git init -q || exit $?
                (cd before && git --work-tree=. add -A .) || exit $?
                cd after || exit 1
                context=$1
                shift
                [ $# -eq 0 ] || git --work-tree=. add -N -- "$@" || exit $?
                exec git --work-tree=. diff --no-color --no-ext-diff --no-renames --src-prefix=a/ --dst-prefix=b/ \
                  "--unified=$context"
                """
            let output = try GitRunner.script(steps, arguments: [String(context)] + added, in: dir, writable: false)
            guard output.status == 0 else { throw output.failure("diff") }
            return String(decoding: output.stdout, as: UTF8.self)
        }
    }

    /// Applies a unified diff to `files` (path → content) and returns every file it touches with
    /// its new content (nil: deleted). Throws `SentinelError(.git)` naming git's complaint when the
    /// diff does not apply cleanly; paths outside the tree are refused.
    public static func apply(_ patch: String, to files: [String: String]) throws -> [FileChange] {
        try ScratchDirectory.with { dir in
            for (path, content) in files {
                try checkRelative(path)
                try write(content, to: dir + "/" + path)
            }
            // One sandboxed run lists the paths (stdout) and applies the patch; whatever it wrote
            // stays in this scratch tree until the paths are checked and read back beneath it.
            let steps = """
                git init -q . || exit $?
                cat > /tmp/patch || exit $?
                git apply --numstat -z /tmp/patch || exit $?
                exec git apply --whitespace=nowarn /tmp/patch
                """
            let output = try GitRunner.script(steps, arguments: [], in: dir, input: Data(patch.utf8), writable: true)
            guard output.status == 0 else { throw output.failure("apply") }
            let paths = String(decoding: output.stdout, as: UTF8.self).split(separator: "\0").compactMap { entry -> String? in
                let fields = entry.split(separator: "\t", maxSplits: 2)
                return fields.count == 3 ? String(fields[2]) : nil
            }
            for path in paths { try checkRelative(path) }
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
