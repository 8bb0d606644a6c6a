import Findings
import Scan
import Testing

/// The tool names the command line offers are the scanners a scan makes, in the same order.
@Suite struct ScannerRegistryTests {
    @Test("the written-out tool names are the standard scanners' own names, then the web scanners'")
    func toolNamesAreTheScannersNames() {
        #expect(ScannerRegistry.standardToolNames == ScannerRegistry.standard(config: ScanConfig()).map(\.name))
        #expect(ScannerRegistry.toolNames == ScannerRegistry.standardToolNames + ScannerRegistry.webToolNames)
        #expect(ScannerRegistry.defaultToolNames.allSatisfy(ScannerRegistry.toolNames.contains))
    }
}
