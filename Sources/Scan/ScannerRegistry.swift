/// Every scanner Sentinel knows, in the order reports list them.
public enum ScannerRegistry {
    public static func standard(config: ScanConfig) -> [any Scanner] {
        var scanners: [any Scanner] = []
        scanners.append(SecretsScanner())
        return scanners
    }
}
