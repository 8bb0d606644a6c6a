import CSandbox
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The sandbox's failures, as `SentinelError`s that name the stage and the errno
/// (`sandbox setup failed at pivot_root: Operation not permitted`). Their codes carry
/// Docker's exit statuses: 125 setup, 126 not executable, 127 not found.
extension SentinelError.Code {
    /// The command could not be executed (exit status 126).
    public static let commandNotExecutable = Self("command-not-executable", exitStatus: 126)
    /// The command was not found (exit status 127).
    public static let commandNotFound = Self("command-not-found", exitStatus: 127)
    /// The changes of an `rw` workspace could not all be committed back after the run (125).
    public static let workspaceCommitFailed = Self("workspace-commit-failed", exitStatus: 125)
}

extension SentinelError {
    /// A stage of building the sandbox failed: `sandbox setup failed at STAGE (DETAIL): REASON`.
    /// - Parameter detail: extra context, e.g. the path of the filesystem operation that failed.
    public static func sandboxSetup(stage: String, errno: Errno?, detail: String? = nil) -> SentinelError {
        SentinelError(
            .sandboxSetup, "sandbox setup failed at \(stage)\(context(detail))\(reason(errno))",
            errno: errno, stage: stage)
    }

    /// The C launcher's `failure` (its stage's name and errno, none for 0) as `sandboxSetup`.
    static func sandboxSetup(_ failure: sbx_failure, detail: String? = nil) -> SentinelError {
        .sandboxSetup(
            stage: String(cString: sbx_stage_name(failure.stage)),
            errno: failure.err != 0 ? Errno(rawValue: failure.err) : nil, detail: detail)
    }

    /// `execve` of the command failed: 127 when it does not exist, else 126.
    /// - Parameter detail: the command as given (`argv[0]`).
    public static func commandFailed(stage: String = "execve", errno: Errno?, detail: String?) -> SentinelError {
        let code: Code = errno?.rawValue == ENOENT ? .commandNotFound : .commandNotExecutable
        return SentinelError(
            code, "cannot execute command: execve\(context(detail))\(reason(errno))",
            errno: errno, stage: stage)
    }

    /// Committing an `rw` workspace's changes back stopped at `stage`.
    /// - Parameter detail: the entry, relative to the workspace, and why when no errno says it.
    public static func workspaceCommit(stage: String, errno: Errno?, detail: String?) -> SentinelError {
        SentinelError(
            .workspaceCommitFailed,
            "workspace commit failed at \(stage)\(context(detail))\(reason(errno))", errno: errno, stage: stage)
    }

    private static func context(_ detail: String?) -> String { detail.map { " (\($0))" } ?? "" }
    private static func reason(_ errno: Errno?) -> String { errno.map { ": \($0.message)" } ?? "" }
}
