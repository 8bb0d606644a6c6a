import Foundation
import Support

extension SentinelError.Code {
    /// A patch no longer applies to the commit it is meant for (the base moved).
    public static let patchStale = SentinelError.Code("patch-stale")
}

/// A user's git repository, read and extended with plumbing only: commits are built in a
/// temporary index from a base commit and a patch, and a branch is created pointing at them.
/// The working tree, the index and HEAD are never touched, so nothing the user is doing can be
/// mixed into a commit, and a half-finished run leaves at most an unreferenced object behind.
public struct GitRepository: Sendable, Hashable {
    /// The top-level directory (absolute, symlinks resolved).
    public let root: String

    /// The repository containing `path`; `SentinelError(.invalidInput)` when it is not in one.
    public init(containing path: String) throws {
        let tree = GitWorkTree.containing(path)
        let output = try GitRunner.run(["rev-parse", "--show-toplevel"], in: path)
        guard let tree, output.status == 0 else {
            // Any other refusal (an unreadable .git, a broken HEAD) is git's to explain.
            let first = output.stderr.split(separator: "\n").first.map(String.init) ?? ""
            let reason = first.isEmpty || first.contains("not a git repository") ? "" : ": git says \(first)"
            throw SentinelError(.invalidInput, "\(path): not a git repository (proposals and branches need one)\(reason)")
        }
        // git names the top level as the sandbox shows it; the host's is the tree it was shown.
        root = tree.root
    }

    /// The branch HEAD is on, or nil when detached.
    public func currentBranch() throws -> String? {
        let output = try GitRunner.run(["symbolic-ref", "--quiet", "--short", "HEAD"], in: root)
        guard output.status == 0 else { return nil }
        return text(output.stdout)
    }

    /// The commit HEAD names (nil in a repository without one) and the branch HEAD is on (nil
    /// when detached), read in one sandboxed run: each run is a sandbox launch.
    public func head() throws -> (commit: String?, branch: String?) {
        let steps = """
            git rev-parse --verify --quiet --end-of-options 'HEAD^{commit}' || echo
            git symbolic-ref --quiet --short HEAD || echo
            """
        let output = try GitRunner.script(steps, arguments: [], in: root)
        let lines = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard output.status == 0, lines.count == 3, lines[2].isEmpty else { throw output.failure("reading HEAD") }
        func value(_ line: Substring) -> String? {
            let text = line.trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        }
        return (value(lines[0]), value(lines[1]))
    }

    /// The commit `revision` names (a branch, a tag, a sha), or nil when it names none.
    public func commit(_ revision: String) throws -> String? {
        guard !revision.hasPrefix("-") else { return nil }
        let output = try GitRunner.run(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: root)
        return output.status == 0 ? text(output.stdout) : nil
    }

    /// Tracked files changed in the working tree or the index (untracked files do not count:
    /// they cannot end up in a commit made from a temporary index).
    public func uncommittedChanges() throws -> [String] {
        let data = try GitRunner.check(["status", "--porcelain=v1", "-z", "--untracked-files=no", "--ignore-submodules=all"], in: root)
        return String(decoding: data, as: UTF8.self).split(separator: "\0").map { String($0.dropFirst(3)) }
    }

    /// Throws `SentinelError(.invalidInput)` naming the changed files when there are uncommitted
    /// changes: Sentinel never mixes the user's work into its commit.
    public func requireClean() throws {
        let dirty = try uncommittedChanges()
        guard dirty.isEmpty else {
            throw SentinelError(
                .invalidInput,
                "\(root): uncommitted changes in \(dirty.prefix(3).joined(separator: ", "))"
                    + (dirty.count > 3 ? " and \(dirty.count - 3) more" : "")
                    + "; commit or stash them first (Sentinel never mixes your work into its commit)")
        }
    }

    /// Whether `refs/heads/<branch>` exists.
    public func branchExists(_ branch: String) throws -> Bool {
        try GitRunner.run(["show-ref", "--verify", "--quiet", "refs/heads/" + branch], in: root).status == 0
    }

    /// The commit `branch` points at, or nil when it does not exist.
    public func branchCommit(_ branch: String) throws -> String? {
        try branchExists(branch) ? try commit("refs/heads/" + branch) : nil
    }

    /// Checks `name` the way git does for a new branch.
    public static func checkBranchName(_ name: String) throws {
        let output = try GitRunner.script("exec git \"$@\"", arguments: ["check-ref-format", "--branch", name], in: nil)
        guard output.status == 0, !name.hasPrefix("-") else {
            throw SentinelError(.invalidInput, "\(name): not a valid branch name")
        }
    }

    /// A commit of `patch` applied to `base`'s tree, with `base` as its parent and `message` as
    /// its message, written by `author` (nil: Sentinel's own identity; Sentinel commits either
    /// way). No ref changes: the commit is unreachable until `createBranch`. A patch that does not
    /// apply is `SentinelError(.patchStale)` with git's reason.
    public func commit(patch: String, onto base: String, message: String, author: GitIdentity? = nil) throws -> String {
        // One run, so that the temporary index (in the sandbox's own /tmp) lives from the
        // read-tree to the write-tree; the patch is its stdin, the message a variable.
        let steps = """
            export GIT_INDEX_FILE=/tmp/sentinel-index
            git read-tree "$1" || exit 90
            git apply --cached --whitespace=nowarn - || exit 91
            tree=$(git write-tree) || exit 92
            printf '%s' "$SENTINEL_MESSAGE" | git commit-tree "$tree" -p "$1" -F -
            """
        let output = try GitRunner.script(
            steps, arguments: [base], in: root, input: Data(patch.utf8), writable: true,
            environment: ["SENTINEL_MESSAGE": message].merging(author?.authorEnvironment ?? [:]) { _, author in author })
        switch output.status {
        case 0:
            return text(output.stdout)
        case 91:
            let reason = output.stderr.split(separator: "\n").prefix(2).joined(separator: "; ")
            throw SentinelError(.patchStale, "the patch no longer applies to \(base.prefix(12)): \(reason)")
        default:
            throw output.failure("commit of a patch onto \(base.prefix(12))")
        }
    }

    /// Creates `refs/heads/<branch>` at `commit`, atomically and only if it does not exist yet.
    public func createBranch(_ branch: String, at commit: String) throws {
        try Self.checkBranchName(branch)
        let output = try GitRunner.run(
            ["update-ref", "-m", "sentinel: create " + branch, "refs/heads/" + branch, commit, String(repeating: "0", count: 40)],
            in: root, writable: true)
        guard output.status == 0 else {
            if try branchExists(branch) { throw SentinelError(.git, "branch \(branch) already exists in \(root)") }
            throw SentinelError(.git, "cannot create branch \(branch): \(output.stderr.split(separator: "\n").first ?? "")")
        }
    }

    /// Deletes `refs/heads/<branch>` only while it still points at `commit` (nothing else is lost).
    public func deleteBranch(_ branch: String, at commit: String) throws {
        try GitRunner.check(["update-ref", "-d", "refs/heads/" + branch, commit], in: root, writable: true)
    }

    /// The full message of `commit`.
    public func message(of commit: String) throws -> String {
        String(decoding: try GitRunner.check(["cat-file", "commit", commit], in: root), as: UTF8.self)
            .components(separatedBy: "\n\n").dropFirst().joined(separator: "\n\n")
    }

    /// The files `commit` changes against its first parent, with their content before and after.
    public func changes(of commit: String) throws -> [FileChange] {
        let data = try GitRunner.check(["diff-tree", "--no-commit-id", "--no-renames", "-r", "-z", "--name-status", commit], in: root)
        let fields = String(decoding: data, as: UTF8.self).split(separator: "\0").map(String.init)
        var changes: [FileChange] = []
        var index = 0
        while index + 1 < fields.count {
            let status = fields[index]
            let path = fields[index + 1]
            index += 2
            let before = status == "A" ? nil : try show(commit + "^", path)
            let after = status == "D" ? nil : try show(commit, path)
            changes.append(FileChange(path: path, before: before, after: after))
        }
        return changes
    }

    private func show(_ commit: String, _ path: String) throws -> String {
        String(decoding: try GitRunner.check(["cat-file", "blob", commit + ":" + path], in: root), as: UTF8.self)
    }

    private func text(_ data: Data) -> String {
        String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
