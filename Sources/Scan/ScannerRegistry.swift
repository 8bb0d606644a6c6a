import Adapters
/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    /// The scanners' tool names (`native`, `secrets`, `osv`, `bandit`, `semgrep`): what `--tools`
    /// and a config's `tools:` may name.
    public static var toolNames: [String] { standard(config: ScanConfig()).map(\.name) }

    /// The scanners, configured by `config` (Semgrep's rule files).
    public static func standard(config: ScanConfig) -> [any Adapters.Scanner] {
        [
            NativeSASTScanner(),
            SecretsScanner(),
            DependencyScanner(),
            BanditScanner(),
            SemgrepScanner(configPaths: config.semgrepConfigs),
        ]
    }
}
