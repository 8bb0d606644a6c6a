import Foundation
import Heal
import Signals
import Support
import Testing

/// Signal files are taken from the repository or CI: hostile bytes give signals or a one-line
/// `SentinelError`, never a crash (inputs found by `bench/fuzz.sh signals` and `Tests/FuzzTests`).
@Suite struct HostileSignalTests {
    /// Names and attribute values that are not UTF-8: Foundation's XMLParser (libxml2 underneath)
    /// trapped on `test\xC3case` as an element name (SIGILL), ending `sentinel heal`.
    @Test(arguments: [
        [UInt8]("<testsuite><test".utf8) + [0xC3] + [UInt8]("case name=\"t\"><failure/></testcase></testsuite>".utf8),
        [UInt8]("<testsuite><testcase na".utf8) + [0xFF] + [UInt8]("me=\"t\"/></testsuite>".utf8),
        [UInt8]("<testsuite><testcase name=\"".utf8) + [0xC3, 0x28] + [UInt8]("\"><failure message=\"".utf8) + [0xE2, 0x82]
            + [UInt8]("\"/></testcase></testsuite>".utf8),
    ])
    func junitThatIsNotUTF8(bytes: [UInt8]) {
        do {
            let signals = try SignalReader.read(Data(bytes), name: "junit.xml")
            #expect(!signals.isEmpty)
        } catch let error as SentinelError {
            #expect(error.message.hasPrefix("junit.xml: "))
        } catch {
            Issue.record("untyped error \(error)")
        }
    }
}
