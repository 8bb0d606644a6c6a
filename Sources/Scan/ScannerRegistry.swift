import Adapters
import DAST
import Findings
import ScanCore
/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    /// The scanners' tool names (`native`, `secrets`, `osv`, `bandit`, `semgrep`): what `--tools`
    /// and a config's `tools:` may name.
    public static var toolNames: [ToolName] { standardToolNames + webToolNames }

    /// The names of ``standard(config:web:)``'s scanners without a `--dast` target, in order.
    /// Written out rather than read off the scanners: the command line asks for them while it
    /// parses (`--tools`' values), in every process, where making the scanners looked for the rule
    /// and data directories on disk (a scan's two processes 1.7 ms of CPU, issue 77).
    /// `ScannerRegistryTests` holds the two in step.
    public static let standardToolNames: [ToolName] = [.native, .secrets, .osv, .bandit, .semgrep]

    /// The tools a scan runs when nothing names them (the built-in engines).
    public static var defaultToolNames: [ToolName] {
        standard(config: ScanConfig()).filter(\.isDefault).map(\.name) + [ToolName.dast]
    }

    /// The suppression comments of every scanner Sentinel knows (`# nosec`, `# nosemgrep`):
    /// honoured whichever tools run, so `# nosec` hides a native finding without Bandit.
    public static var suppressionSyntaxes: [SuppressionSyntax] {
        standard(config: ScanConfig()).compactMap(\.suppressionSyntax)
    }

    /// The web scanners' names: they exist only for a `--dast` scan.
    public static let webToolNames: [ToolName] = [ToolName.dast, ToolName.zap, ToolName.wapiti]

    /// The scanners, configured by `config` (taint models, Semgrep's rule files) and, for `--dast`, `web`.
    public static func standard(config: ScanConfig, web: WebScanRequest? = nil) -> [any ScanCore.Scanner] {
        var scanners: [any ScanCore.Scanner] = [
            NativeSASTScanner(models: config.taintModels),
            SecretsScanner(),
            DependencyScanner(),
            BanditScanner(),
            SemgrepScanner(configPaths: config.semgrepConfigs),
        ]
        if let web {
            var options = web.options
            options.login = options.login ?? config.dastLogin
            options.exclude += config.dastExclude
            scanners.append(NativeDASTScanner(options: options, workerExecutable: web.workerExecutable))
            var wapiti = WapitiScanner(targetURL: options.target, active: options.active, maxDuration: options.maxDuration)
            wapiti.login = options.login
            wapiti.exclude = options.exclude
            scanners.append(wapiti)
            if let zapURL = web.zapURL {
                scanners.append(
                    ZAPScanner(
                        targetURL: options.target, apiURL: zapURL, apiKeyFile: web.zapKeyFile, active: options.active,
                        maxDuration: options.maxDuration))
            }
        }
        return scanners
    }
}
