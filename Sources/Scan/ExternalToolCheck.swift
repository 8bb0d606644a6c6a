import Adapters
import Findings
import ScanCore

/// Whether one external scanner (Bandit, Semgrep, Wapiti) can run here, decided by the same
/// `unavailableReason` a scan asks, so `doctor` and `--tools` never disagree (issue 27: `doctor`
/// said Wapiti was missing while `--tools wapiti` ran it from its own venv).
public struct ExternalToolCheck: Sendable, Hashable {
    /// The tool's `--tools` name.
    public var tool: ToolName
    /// The executable a scan would run (inside the sandbox).
    public var executable: String
    /// Why it cannot run; nil when it can.
    public var unavailableReason: String?
    /// What else a scan needs from the user (Semgrep's rules), when it can run.
    public var note: String?

    /// The external scanners' checks under `context`, in the registry's order.
    public static func all(context: ScanContext = ScanContext()) -> [ExternalToolCheck] {
        let wapiti = WapitiScanner(targetURL: "http://127.0.0.1/")
        let bandit = BanditScanner()
        let semgrep = SemgrepScanner(configPaths: [])
        let semgreps = ToolInstallation(tool: ToolName.semgrep, directory: context.toolsDirectory)
        return [
            ExternalToolCheck(
                tool: ToolName.bandit,
                executable: ToolInstallation(tool: ToolName.bandit, directory: context.toolsDirectory).executable,
                unavailableReason: bandit.unavailableReason(context: context)),
            // Installed is what this asks; the rules are the scan's (without them `--tools semgrep`
            // says so and skips the tool).
            ExternalToolCheck(
                tool: ToolName.semgrep, executable: semgreps.executable,
                unavailableReason: semgreps.unavailableReason(profile: semgrep.profile, context: context),
                note: "rules from semgrep.config in .sentinel.yml or --config"),
            ExternalToolCheck(
                tool: ToolName.wapiti, executable: wapiti.installation(context: context).executable,
                unavailableReason: wapiti.unavailableReason(context: context)),
        ]
    }
}
