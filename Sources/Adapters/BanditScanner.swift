import Findings
import Foundation
import ScanCore
import Support

/// Bandit (Python SAST) run inside the sandbox with the `scan-bandit` profile over a read-only
/// workspace, its JSON report read into findings `bandit.<test id>`.
///
/// `# nosec` is honoured by Bandit itself (no `--ignore-nosec`), with Bandit's own rules for
/// multi-line statements and `# nosec B602` lists; the count it hid is reported as a notice.
/// Where only the findings pipeline may decide (`ScanContext.toolsApplySuppressions` false: a pull
/// request's scan, `--no-inline-suppressions`), it runs with `--ignore-nosec`, and with
/// `--ini /dev/null`: Bandit otherwise reads a `.bandit` file it finds under a directory target
/// (its `skips`, `tests` and `exclude`), which a pull request could add to hide its own code.
public struct BanditScanner: ScanCore.Scanner {
    /// The sandbox profile Bandit runs under.
    public static let defaultProfile = "scan-bandit"
    /// Files Bandit reads (`bandit -r` picks `*.py` and `*.pyw`).
    public static let extensions: Set<String> = ["py", "pyw"]

    /// `bandit`, what `--tools` selects it by.
    public let name = ToolName.bandit
    /// Static analysis.
    public let kind = ScannerKind.sast
    /// Opt-in (`--tools bandit` or `tools:` in `.sentinel.yml`): the native engine covers its
    /// checks, so results do not depend on whether Bandit happens to be installed.
    public let isDefault = false
    /// `# nosec` and `# nosec B602, B607`: on its line only; ids are Bandit's test ids or names,
    /// compared ignoring case, the recorded test id and name included.
    public static let suppressionSyntax = SuppressionSyntax(
        marker: "nosec", tool: ToolName.bandit, matching: .caseInsensitive, coversNextLine: false, namesRecordedTest: true)
    /// Bandit's `# nosec`.
    public var suppressionSyntax: SuppressionSyntax? { Self.suppressionSyntax }
    /// The sandbox profile (a name or a path).
    public var profile: String
    /// Runs the tool; `nil` runs it in the context's sandbox.
    public var executor: (any ToolExecutor)?
    /// Wall-clock limit in seconds; `nil` keeps the profile's (15 minutes).
    public var timeout: Double?

    /// - Parameters:
    ///   - profile: the sandbox profile, a name or a path.
    ///   - executor: runs the tool; `nil` runs it in the context's sandbox.
    ///   - timeout: wall-clock limit in seconds; `nil` keeps the profile's.
    public init(
        profile: String = defaultProfile, executor: (any ToolExecutor)? = nil,
        timeout: Double? = nil
    ) {
        self.profile = profile
        self.executor = executor
        self.timeout = timeout
    }

    /// True when the selection holds Python files.
    public func applies(to target: ScanTarget) -> Bool {
        !target.files(withExtensions: Self.extensions).isEmpty
    }

    /// Why Bandit cannot run: its executable is missing from the context's tools directory, or
    /// its venv uses a Python the sandbox does not show.
    public func unavailableReason(context: ScanContext) -> String? {
        ToolInstallation(tool: name, directory: context.toolsDirectory).unavailableReason(profile: profile, context: context)
    }

    /// The sandboxed command for `target`, and which findings to keep.
    /// The workspace is the deepest directory holding the selected files (see `AdapterWorkspace`).
    public func invocation(for target: ScanTarget, context: ScanContext) -> (ToolInvocation, ToolTargets) {
        let (invocation, targets, _) = plan(for: target, context: context)
        return (invocation, targets)
    }

    func plan(for target: ScanTarget, context: ScanContext) -> (ToolInvocation, ToolTargets, AdapterWorkspace) {
        let installation = ToolInstallation(tool: name, directory: context.toolsDirectory)
        let workspace = AdapterWorkspace(target: target, files: target.files(withExtensions: Self.extensions))
        let targets = ToolTargets(files: workspace.files)
        // Where Sentinel alone decides which comments count, Bandit reports what `# nosec` hides.
        let nosec = context.toolsApplySuppressions ? [] : ["--ignore-nosec", "--ini", "/dev/null"]
        let command = [installation.executable, "-r", "-f", "json", "-q"] + nosec + ["--"] + targets.arguments
        let invocation = ToolInvocation(
            profile: profile, command: command, workspace: workspace.host,
            extraReadOnly: installation.extraReadOnly, timeout: timeout)
        return (invocation, targets, workspace)
    }

    /// Runs `bandit -r -f json -q` over the selected Python files in the sandbox. Throws
    /// `SentinelError(.toolFailed, ...)` when Bandit is missing, fails, times out or is killed.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let plan = plan(for: target, context: context)
        var output = try AdapterRun.scan(
            tool: name, informationURI: BanditReport.informationURI, plan: plan,
            unavailableReason: unavailableReason(context: context), context: context, executor: executor
        ) { data, root in
            try BanditReport.parse(data: data, root: root)
        }
        // Only a run that happened has a version to report.
        if !plan.1.arguments.isEmpty {
            output.tool.version = ToolInstallation(tool: name, directory: context.toolsDirectory).packageVersion("bandit")
        }
        return output
    }
}
