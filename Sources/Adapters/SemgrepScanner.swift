import Findings
import Foundation
import ScanCore
import Support

/// Semgrep run inside the sandbox with the `scan-semgrep` profile over a read-only workspace,
/// with rules from local files or directories (bound read-only) and no network: metrics and the
/// version check are off. Opt-in (`--tools semgrep`), because it needs rules. Findings are
/// `semgrep.<id>` with the `id:` the rule file gives.
public struct SemgrepScanner: ScanCore.Scanner {
    /// The sandbox profile Semgrep runs under.
    public static let defaultProfile = "scan-semgrep"
    /// Extensions of files Semgrep has a parser for (the languages its rules are written for).
    public static let extensions: Set<String> = [
        "py", "pyi", "js", "jsx", "mjs", "cjs", "ts", "tsx", "java", "go", "rb", "php", "c", "h", "cc", "cpp",
        "hpp", "cs", "kt", "kts", "scala", "rs", "swift", "sh", "bash", "tf", "hcl", "json", "yaml", "yml",
        "html", "ex", "exs", "lua", "sol", "dart", "jl", "clj", "ml", "mli", "r", "vue", "dockerfile",
    ]
    /// Files Semgrep understands by name alone.
    public static let fileNames: Set<String> = ["Dockerfile", "Containerfile"]
    /// Variables that keep Semgrep from writing outside `/tmp` or reaching the network.
    public static let environment: [String: String] = [
        "HOME": "/tmp",
        "XDG_CONFIG_HOME": "/tmp/.config",
        "XDG_CACHE_HOME": "/tmp/.cache",
        "SEMGREP_ENABLE_VERSION_CHECK": "0",
        "SEMGREP_SEND_METRICS": "off",
    ]

    /// `semgrep`, what `--tools` selects it by.
    public let name = ToolName.semgrep
    /// Static analysis.
    public let kind = ScannerKind.sast
    /// Opt-in: it needs rules.
    public let isDefault = false
    /// `# nosemgrep` and `# nosemgrep: rule-id`: on its line, or alone on the line above; an id
    /// matches a Semgrep rule id equal to it or ending in `.` and it.
    public static let suppressionSyntax = SuppressionSyntax(
        marker: "nosemgrep", tool: ToolName.semgrep, matching: .dottedSuffix, coversNextLine: true)
    /// Semgrep's `# nosemgrep`.
    public var suppressionSyntax: SuppressionSyntax? { Self.suppressionSyntax }
    /// The rule files or directories passed as `--config` (host paths, bound read-only).
    public var configPaths: [String]
    /// The sandbox profile (a name or a path).
    public var profile: String
    /// Runs the tool; `nil` runs it in the context's sandbox.
    public var executor: (any ToolExecutor)?
    /// Wall-clock limit in seconds; `nil` keeps the profile's (20 minutes).
    public var timeout: Double?

    /// - Parameter configPaths: rule files or directories; relative paths are taken from the
    ///   current directory.
    public init(
        configPaths: [String], profile: String = defaultProfile, executor: (any ToolExecutor)? = nil,
        timeout: Double? = nil
    ) {
        self.profile = profile
        self.configPaths = configPaths.map { (AdapterBinds.absolute($0) as NSString).standardizingPath }
        self.executor = executor
        self.timeout = timeout
    }

    /// True when the selection holds a file Semgrep can parse.
    public func applies(to target: ScanTarget) -> Bool {
        !files(in: target).isEmpty
    }

    /// The selected files Semgrep has a parser for.
    public func files(in target: ScanTarget) -> [String] {
        target.files.filter { file in
            let base = file.split(separator: "/").last.map(String.init) ?? file
            if Self.fileNames.contains(base) { return true }
            guard let dot = base.lastIndex(of: ".") else { return false }
            return Self.extensions.contains(base[base.index(after: dot)...].lowercased())
        }
    }

    /// What to do when no rules were given: Semgrep has no default rules offline, and its
    /// registry (`--config auto`, `p/python`) is out of the sandbox's reach.
    public static let noRules =
        "semgrep needs rules: list rule files or directories under `semgrep: {config: [PATH, ...]}` in the scanned "
        + "tree's .sentinel.yml or in your --config file (e.g. a checkout of semgrep-rules); the Semgrep registry is "
        + "not reachable from the sandbox"

    /// Why Semgrep cannot run: not installed (or its venv's Python is not visible in the
    /// sandbox), no rules given, or a rule path missing.
    public func unavailableReason(context: ScanContext) -> String? {
        let installation = ToolInstallation(tool: name, directory: context.toolsDirectory)
        if let reason = installation.unavailableReason(profile: profile, context: context) {
            return reason
        }
        if configPaths.isEmpty { return Self.noRules }
        if let absent = configPaths.first(where: { !FileManager.default.fileExists(atPath: $0) }) {
            return "semgrep rules not found: \(absent)"
        }
        return nil
    }

    /// The sandboxed command for `target`, and which findings to keep.
    public func invocation(for target: ScanTarget, context: ScanContext) -> (ToolInvocation, ToolTargets) {
        let (invocation, targets, _) = plan(for: target, context: context)
        return (invocation, targets)
    }

    /// The workspace is the deepest directory holding the selected files (see `AdapterWorkspace`).
    func plan(for target: ScanTarget, context: ScanContext) -> (ToolInvocation, ToolTargets, AdapterWorkspace) {
        let installation = ToolInstallation(tool: name, directory: context.toolsDirectory)
        let workspace = AdapterWorkspace(target: target, files: files(in: target))
        let targets = ToolTargets(files: workspace.files)
        // `--no-rewrite-rule-ids`: ids as the rule files spell them, not prefixed with their directory.
        var command = [
            installation.executable, "scan", "--json", "--metrics=off", "--disable-version-check", "--quiet",
            "--no-rewrite-rule-ids",
        ]
        for path in configPaths { command += ["--config", path] }
        // Where Sentinel alone decides which comments count, Semgrep reports what `nosemgrep` hides.
        if !context.toolsApplySuppressions { command.append("--disable-nosem") }
        command += ["--"] + targets.arguments
        let binds =
            installation.extraReadOnly
            + AdapterBinds.outsideProfileRoots(configPaths, profileRoots: [ToolInstallation.profileToolsRoot])
        let invocation = ToolInvocation(
            profile: profile, command: command, workspace: workspace.host, extraReadOnly: binds,
            environment: Self.environment, timeout: timeout)
        return (invocation, targets, workspace)
    }

    /// Runs `semgrep scan --json` with the rules over the selected files in the sandbox. Throws
    /// `SentinelError(.toolFailed, ...)` when Semgrep is missing, fails, times out or is killed.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        try AdapterRun.scan(
            tool: name, informationURI: SemgrepReport.informationURI, plan: plan(for: target, context: context),
            unavailableReason: unavailableReason(context: context), context: context, executor: executor,
            failureDetail: SemgrepReport.fatalMessage(in:)
        ) { data, root in
            try SemgrepReport.parse(data: data, root: root, configPaths: configPaths)
        }
    }
}
