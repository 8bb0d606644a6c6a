import DAST
import Testing

@Suite struct DASTModuleTests {
    @Test func toolNameIsDast() {
        #expect(DAST.toolName == "dast")
    }
}
