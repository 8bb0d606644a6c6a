import Testing
@testable import Support

@Suite struct QuantityTests {
    @Test(arguments: [
        ("64M", UInt64(64 << 20)), ("1G", UInt64(1 << 30)), ("512", UInt64(512)),
        ("2K", UInt64(2048)), ("1.5M", UInt64(1_572_864)), ("8MiB", UInt64(8 << 20)),
    ])
    func parsesSizes(text: String, expected: UInt64) {
        #expect(Quantity.bytes(text) == expected)
    }

    @Test(arguments: ["", "M", "-1M", "12X", "abc"])
    func rejectsBadSizes(text: String) {
        #expect(Quantity.bytes(text) == nil)
    }

    @Test(arguments: [("30", 30.0), ("30s", 30.0), ("2m", 120.0), ("1h", 3600.0), ("250ms", 0.25), ("7d", 604_800.0)])
    func parsesDurations(text: String, expected: Double) {
        #expect(Quantity.seconds(text) == expected)
    }
}
