import Support
import Testing

/// ``ExactText``: texts keyed by their bytes, not by Swift's canonical equivalence.
@Suite struct ExactTextTests {
    @Test("texts equal only canonically are different keys; the same bytes are one key")
    func bytesDecide() {
        let plain = "SECRET_KEY"
        let kelvin = "SECRET_\u{212A}EY"
        let composed = "caf\u{E9}"
        let decomposed = "cafe\u{301}"
        #expect(plain == kelvin && composed == decomposed)
        #expect(ExactText(plain) != ExactText(kelvin))
        #expect(ExactText(composed) != ExactText(decomposed))
        #expect(ExactText(plain) == ExactText(String(plain.utf8.map { Character(Unicode.Scalar($0)) })))
        let table: [ExactText: Int] = [ExactText(plain): 1, ExactText(kelvin): 2, ExactText(composed): 3, ExactText(decomposed): 4]
        #expect(table.count == 4)
        #expect(table[ExactText(kelvin)] == 2 && table[ExactText(decomposed)] == 4)
    }
}
