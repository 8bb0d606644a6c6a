/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    public static func standard(config: ScanConfig) -> [any Scanner] {
        [
            SecretsScanner(),
            DependencyScanner(),
            BanditScanner(),
            SemgrepScanner(configPaths: config.semgrepConfigs),
        ]
    }
}
