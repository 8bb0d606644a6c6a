import Findings
import Foundation
import Sandbox
import Support

/// Progress a scan reports; the CLI shows it on stderr (a self-overwriting line on a terminal,
/// plain lines in a CI log), and while a scanner reports nothing (an external tool runs) says
/// how long it has been running.
public enum ScanProgress: Sendable {
    /// A scanner begins over `files` files (an adapter says again once it knows what its tool reads).
    case started(tool: ToolName, files: Int)
    /// A scanner has read `index` of its `total` files, `path` among the latest.
    case file(tool: ToolName, index: Int, total: Int, path: String)
    /// A scanner enters a named stage of its run (`spider`, `matching 120 dependencies`).
    case step(tool: ToolName, String)
    /// A scanner finished with `findings` findings (before suppressions and the gate).
    case finished(tool: ToolName, findings: Int)
    /// A scanner failed; its error is reported with the scan's results.
    case failed(tool: ToolName)
}

/// What scanners may use beyond the target: the sandbox for external tools, settings, progress.
public struct ScanContext: Sendable {
    /// How external tools are run (profiles, limits policy, notices).
    public var sandbox: SandboxRunner
    /// Rule directories for the native engine.
    public var ruleDirectories: [String]
    /// Where `sentinel db` keeps the OSV database.
    public var databasePath: String
    /// Where external tools (bandit, semgrep) are installed: `<dir>/bin/<tool>`.
    public var toolsDirectory: String
    /// Told as scanners start, move through files and finish.
    public var progress: @Sendable (ScanProgress) -> Void
    /// OSV data whose newest `modified` is older than this (seconds) fails the scan, or draws a
    /// warning with `allowStaleDatabase` (`--max-db-age`, `sca.max-db-age`).
    public var maxDatabaseAge: Double = ScanContext.defaultMaxDatabaseAge
    /// Warnings the user should see while the scan runs (the CLI prints them on stderr); they
    /// are also notices in the report.
    public var warn: @Sendable (String) -> Void = { _ in }

    /// Whether a scan whose lockfiles cannot be checked for want of advisory data fails (exit 3,
    /// naming the command that fetches it) rather than reporting "no findings" it never looked
    /// for; so do dependencies of an ecosystem the database holds nothing for. `--allow-missing-db`
    /// turns it off.
    public var requireDatabase = true

    /// Whether advisory data older than `maxDatabaseAge` is used with a warning rather than
    /// failing the scan (exit 3, naming `sentinel db update`). `--allow-stale-db` turns it on.
    public var allowStaleDatabase = false

    /// Whether external tools may apply the suppression comments they read themselves (Bandit's
    /// `# nosec`, Semgrep's `# nosemgrep`). False under `--no-inline-suppressions` and in a pull
    /// request's scan (`--since`), where only the findings pipeline decides which comments count.
    public var toolsApplySuppressions = true

    /// The work units the native engine may spend on one file (`--max-file-work`); nil: its default.
    public var maxFileWork: Int?

    /// Seven days.
    public static let defaultMaxDatabaseAge: Double = 7 * 86_400

    /// A context; the defaults run tools with the standard profiles and report no progress.
    public init(
        sandbox: SandboxRunner = SandboxRunner(), ruleDirectories: [String] = [], databasePath: String = "",
        toolsDirectory: String = ScanContext.defaultToolsDirectory,
        progress: @escaping @Sendable (ScanProgress) -> Void = { _ in }
    ) {
        self.sandbox = sandbox
        self.ruleDirectories = ruleDirectories
        self.databasePath = databasePath
        self.toolsDirectory = toolsDirectory
        self.progress = progress
    }

    /// `$SENTINEL_TOOLS` or `/opt/sentinel-tools/venv` (what `make tools` installs).
    public static var defaultToolsDirectory: String {
        ProcessInfo.processInfo.environment["SENTINEL_TOOLS"] ?? "/opt/sentinel-tools/venv"
    }
}

/// Runs external tools inside the sandbox with a named profile, capturing their output.
public struct SandboxRunner: Sendable {
    /// Where tool profiles (`scan-bandit`, `scan-semgrep`) are found.
    public var profiles: ProfileStore
    /// Fail a tool's run rather than approximate its limits with rlimits (`--require-limits`).
    public var requireLimits = false
    /// Told when a run's limits fall back to rlimits (see `LaunchOptions.onNotice`).
    public var onNotice: @Sendable (String) -> Void = { _ in }

    /// A runner using `profiles` (by default the shipped ones).
    public init(profiles: ProfileStore = .standard(syntax: .yaml)) {
        self.profiles = profiles
    }

    /// Runs `command` with `profile` (resolved from `profiles` by the caller) over `workspace`
    /// (mounted at /workspace), binding `extraReadOnly` host paths; output is captured. A tool's
    /// denied egress is recorded in the run's egress list, not printed. `pod` names the
    /// `NetworkPod` the run joins; `handle` lets another thread stop it; `workingDirectory` is
    /// inside (the workspace by default).
    public func run(
        profile: Profile, command: [String], workspace: String, extraReadOnly: [String] = [],
        environment: [String: String] = [:], timeout: Double? = nil, pod: String? = nil, handle: LaunchHandle? = nil,
        workingDirectory: String? = nil
    ) throws -> RunResult {
        var profile = profile
        if let timeout { profile.limits.timeoutSeconds = timeout }
        var request = SandboxRequest(
            profile: profile, command: command, workspace: workspace,
            extraReadOnly: extraReadOnly, environment: environment, output: .capture)
        request.requireLimits = requireLimits
        request.pod = pod
        request.handle = handle
        request.workingDirectory = workingDirectory
        request.onNotice = onNotice
        return try SandboxSession.run(request)
    }
}
