import Foundation
import Support

extension SentinelError.Code {
    /// git could not be run, or refused what it was asked (a patch that does not apply).
    public static let git = SentinelError.Code("git")
}

/// The one way Sentinel runs the git CLI: in the sandbox (`GitSandbox`), over the work tree the
/// directory is in and nothing else, as an unprivileged identity, with the repository's own
/// configuration kept from naming any program (`GitConfigGuard`) and submodules never entered.
/// git reads no user or system configuration, and its ownership check stays on: in the
/// sandbox a tree owned by someone else is shown as the payload's own (an idmapped mount),
/// so a CI checkout owned by the runner's user is read as it is, while nothing in it can act
/// with the host's root or the checkout owner's rights (red team R2, issue 53).
public enum GitRunner {
    /// What one git run printed and how it ended.
    public struct Output: Sendable, Hashable {
        /// Exit status.
        public var status: Int32
        /// Standard output, bytes as printed.
        public var stdout: Data
        /// Standard error as text.
        public var stderr: String

        /// `SentinelError(.git)` naming what failed (`git apply`) and git's first error line
        /// (or the exit status when it printed none).
        func failure(_ command: String) -> SentinelError {
            let first = stderr.split(separator: "\n").first.map(String.init) ?? "exit status \(status)"
            return SentinelError(.git, "git \(command): \(first)")
        }
    }

    /// The git binary (inside the sandbox, the host's own, bound read-only).
    public static let executable = GitSandbox.executable

    /// Runs `git ARGS` in `directory` with `input` on stdin; returns whatever the status.
    /// `writable`: the run may change the repository (objects, refs), committed back after it.
    /// `configuration`: more overrides, after the guard's (`protocol.file.allow`).
    public static func run(
        _ arguments: [String], in directory: String, input: Data? = nil, writable: Bool = false,
        configuration: [(key: String, value: String)] = []
    ) throws -> Output {
        try script(
            "exec git \"$@\"", arguments: arguments, in: directory, input: input, writable: writable,
            configuration: configuration)
    }

    /// Runs the shell `body` (git commands; its positional parameters are `arguments`) in the
    /// sandbox over the work tree `directory` is in (or, outside any, over `directory` itself;
    /// nil: over no directory), starting in `directory` there. For sequences that share state
    /// within one run (a temporary index, a patch read twice).
    static func script(
        _ body: String, arguments: [String], in directory: String?, input: Data? = nil, writable: Bool = false,
        configuration: [(key: String, value: String)] = [], environment: [String: String] = [:]
    ) throws -> Output {
        let tree = directory.map { GitWorkTree.containing($0) ?? GitWorkTree(root: $0, subdirectory: "") }
        let start = tree.map { $0.subdirectory.isEmpty ? GitSandbox.mountPoint : GitSandbox.mountPoint + "/" + $0.subdirectory }
        // The repository and work tree are the ones mounted, whatever `core.worktree` says (a
        // work tree elsewhere gave an empty diff, exit 0: `scan --since` saw no change).
        var pinned: [String: String] = [:]
        if tree?.hasGitDirectory == true {
            pinned = ["GIT_DIR": GitSandbox.mountPoint + "/.git", "GIT_WORK_TREE": GitSandbox.mountPoint]
        }
        return try GitSandbox.run(
            script: body, arguments: arguments, workspace: tree?.root, start: start, writable: writable,
            input: input.map { Array($0) }, configuration: configuration,
            environment: pinned.merging(environment) { _, given in given })
    }

    /// Runs git and throws `SentinelError(.git)` with git's first error line unless it exits 0.
    @discardableResult
    public static func check(
        _ arguments: [String], in directory: String, input: Data? = nil, writable: Bool = false
    ) throws -> Data {
        let output = try run(arguments, in: directory, input: input, writable: writable)
        guard output.status == 0 else { throw output.failure(arguments.first ?? "") }
        return output.stdout
    }
}
