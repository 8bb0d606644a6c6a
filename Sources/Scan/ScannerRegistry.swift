import Adapters
import DAST
/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    /// The scanners' tool names (`native`, `secrets`, `osv`, `bandit`, `semgrep`): what `--tools`
    /// and a config's `tools:` may name.
    public static var toolNames: [String] { standard(config: ScanConfig()).map(\.name) + webToolNames }

    /// The web scanners' names: they exist only for a `--dast` scan.
    public static let webToolNames = [DAST.toolName]

    /// The scanners, configured by `config` (Semgrep's rule files) and, for `--dast`, `web`.
    public static func standard(config: ScanConfig, web: WebScanRequest? = nil) -> [any Adapters.Scanner] {
        var scanners: [any Adapters.Scanner] = [
            NativeSASTScanner(),
            SecretsScanner(),
            DependencyScanner(),
            BanditScanner(),
            SemgrepScanner(configPaths: config.semgrepConfigs),
        ]
        if let web {
            scanners.append(NativeDASTScanner(options: web.options, workerExecutable: web.workerExecutable))
        }
        return scanners
    }
}
