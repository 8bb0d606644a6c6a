import Sandbox
import Support

/// The sandbox every git process runs in: the work tree at `/workspace` (read-only, or written
/// back through the launcher's commit for the few runs that write), no network unless a clone
/// names one host, no capability, the built-in seccomp filter, and a host uid of its own when
/// Sentinel runs as root. Whatever a repository's configuration, submodules or attributes make
/// git run runs there too: never as root, never with the network, never over the host's files.
enum GitSandbox {
    /// The first line of every run's script: into the start directory (a variable, so that no
    /// path is ever parsed by the shell), or git's own status for a missing one.
    static let enter = "cd \"$SENTINEL_GIT_START\" || exit 128\n"

    /// The git binary.
    static let executable = "/usr/bin/git"
    /// Where the work tree appears inside.
    static let mountPoint = "/workspace"

    /// The variables every git run gets: no user or system configuration, no prompts, no pager,
    /// fixed identity, the C locale; the configuration guard's overrides come on top.
    static let environment: [String: String] = [
        "PATH": "/usr/bin:/bin", "HOME": "/tmp", "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": "/dev/null",
        "GIT_ATTR_NOSYSTEM": "1", "GIT_PAGER": "cat", "GIT_EDITOR": "false", "GIT_ASKPASS": "", "GIT_SSH_COMMAND": "false",
        "GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C", "GIT_AUTHOR_NAME": "sentinel",
        "GIT_AUTHOR_EMAIL": "sentinel@localhost", "GIT_COMMITTER_NAME": "sentinel",
        "GIT_COMMITTER_EMAIL": "sentinel@localhost", "GIT_CEILING_DIRECTORIES": "/",
        // No transport at all unless a clone names its one (this beats every `protocol.*.allow`
        // a repository sets); no object fetched on demand from a promisor remote (its
        // `uploadpack` would run); no replace refs rewriting what a commit holds.
        "GIT_ALLOW_PROTOCOL": "", "GIT_NO_LAZY_FETCH": "1", "GIT_NO_REPLACE_OBJECTS": "1",
    ]

    /// The profile of one git run: `writable` commits the run's changes to the tree back after it;
    /// `egress` (`host:port` entries) lets a clone reach its remote through the filtering proxy;
    /// `bounds` (a clone's) replace the time limit and the bytes the run may write.
    static func profile(writable: Bool, egress: [String] = [], bounds: GitClone.Bounds? = nil) -> Profile {
        var profile = Profile(
            name: "git",
            description: "git over one work tree: no network, no capability, read-only unless it commits",
            filesystem: .init(
                readOnly: Profile.defaultReadOnly, hidden: Profile.defaultHidden, tmpfs: ["/tmp": 512 << 20],
                workspace: writable ? .rw : .ro),
            environment: .init(allow: [], set: environment),
            network: egress.isEmpty ? .init(mode: .none) : .init(mode: .proxy, allow: egress, maxConnections: 8),
            seccomp: .default,
            limits: .init(
                memoryBytes: 2 << 30, pids: 64, cpus: 1, timeoutSeconds: 900, fileSizeBytes: 2 << 30,
                openFiles: 1024, outputBytes: 256 << 20, workspaceSizeBytes: 4 << 30))
        if let bounds {
            profile.limits.timeoutSeconds = bounds.seconds
            // The clone is written to a tmpfs (the workspace's upper layer), charged as memory.
            profile.limits.workspaceSizeBytes = bounds.bytes
            profile.limits.fileSizeBytes = bounds.bytes
            profile.limits.memoryBytes = max(2 << 30, bounds.bytes + (1 << 30))
        }
        return profile
    }

    /// Runs `script` under `/bin/sh` (its positional parameters: `arguments`) after the guard's
    /// prelude, over `workspace` (nil: none), starting in `start` inside (nil: `/tmp`), and
    /// returns what it printed.
    /// A run the sandbox ended (time, memory) or whose output outgrew its bound is an error.
    static func run(
        script: String, arguments: [String], workspace: String?, start: String?, writable: Bool, input: [UInt8]?,
        configuration: [(key: String, value: String)], environment extra: [String: String],
        extraReadOnly: [String] = [], egress: [String] = [], bounds: GitClone.Bounds? = nil
    ) throws -> GitRunner.Output {
        var request = SandboxRequest(
            profile: profile(writable: writable, egress: egress, bounds: bounds),
            command: ["/bin/sh", "-c", enter + GitConfigGuard.prelude + script, "sentinel-git"] + arguments,
            workspace: workspace, extraReadOnly: extraReadOnly,
            environment: GitConfigGuard.environment(extra: configuration).merging(extra) { _, added in added }
                .merging(["SENTINEL_GIT_START": start ?? "/tmp"]) { _, start in start })
        request.input = input
        let result: RunResult
        do {
            result = try SandboxSession.run(request)
        } catch let error as SentinelError {
            throw SentinelError(.git, "cannot run git in the sandbox: \(error.message)")
        }
        switch result.reason {
        case .exited:
            break
        case .timeout where bounds != nil:
            throw SentinelError(.git, "git \(arguments.first ?? ""): \(bounds?.timeBound ?? "") reached")
        case .timeout, .oom, .signaled, .setupFailed:
            throw SentinelError(.git, "git \(arguments.first ?? ""): ended by the sandbox (\(result.reason.rawValue))")
        }
        if let failure = result.workspaceCommitFailure { throw SentinelError(.git, "git: \(failure.message)") }
        guard !result.stdoutTruncated, !result.stderrTruncated else {
            throw SentinelError(.git, "git \(arguments.first ?? ""): output beyond \(256 << 20) bytes")
        }
        return GitRunner.Output(
            status: result.exitCode, stdout: result.stdout, stderr: String(decoding: result.stderr, as: UTF8.self))
    }
}
