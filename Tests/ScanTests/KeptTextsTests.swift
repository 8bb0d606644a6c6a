import Testing

@testable import Scan

/// The texts the import pre-scan read are kept for the first round up to a byte budget: within
/// it a file is not read twice, beyond it the scan reads it again (memory stays bounded).
@Suite struct KeptTextsTests {
    @Test func keepsWithinTheBudgetAndHandsEachTextOutOnce() {
        let kept = KeptTexts(budget: 10)
        kept.keep("abcdef", for: "a.py")
        kept.keep("ghijk", for: "b.py")  // 6 + 5 > 10: not kept
        kept.keep("é", for: "c.py")  // 2 UTF-8 bytes: fits in the 4 left
        #expect(kept.take("a.py") == "abcdef")
        #expect(kept.take("a.py") == nil)
        #expect(kept.take("b.py") == nil)
        #expect(kept.take("c.py") == "é")
    }
}
