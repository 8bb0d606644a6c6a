/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    public static func standard(config: ScanConfig) -> [any Scanner] {
        [
            NativeSASTScanner(),
            SecretsScanner(),
            DependencyScanner(),
            BanditScanner(),
            SemgrepScanner(configPaths: config.semgrepConfigs),
        ]
    }
}
