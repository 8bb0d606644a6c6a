import Foundation
import Heal
import Signals
import Support
import Testing

/// Heal's signal reader (format detected from content: JUnit XML, SARIF, JSON reports, JSON log
/// lines, pytest output, tracebacks) on mutants: signals or a `SentinelError`, never a trap.
@Suite struct SignalFuzzTests {
    static let dictionary = [
        "<", ">", "</", "<testsuite>", "<testcase name=\"t\" classname=\"a.b\">", "<failure message=\"m\">", "&amp;",
        "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>", "&a;", "{", "}", "[", "]", "\"runs\":", "\"results\":", "\"version\":",
        "\"level\": \"error\"", "\"findings\":", "\"vulns\":", "Traceback (most recent call last):\n",
        "  File \"a.py\", line 1, in f\n", "ValueError: x\n", "FAILED t.py::test_a - E\n", "=== 1 failed in 0.1s ===\n",
        "_____ test_a _____\n", "E   assert 1\n", "t.py:3: AssertionError\n", "\"level\":\"ERROR\"", "\n",
    ]

    @Test func mutatedSignals() {
        let seeds =
            FuzzSeeds.files("HealTests/Fixtures/signals")
            + [
                Array(
                    (#"{"version":"2.1.0","runs":[{"tool":{"driver":{"name":"x"}},"results":[{"ruleId":"r","level":"error","#
                        + #""message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a%20b.py"},"#
                        + #""region":{"startLine":3}}}]}]}]}"#).utf8),
                Array(#"{"findings":[],"summary":{}}"#.utf8),
                Array(#"{"dependencies":[{"name":"a","version":"1","vulns":[{"id":"PYSEC-1","fix_versions":["2"]}]}]}"#.utf8),
            ]
        let problems = fuzz(seeds: seeds, dictionary: Self.dictionary, seed: 8, iterations: 500) { bytes in
            contractBroken(typed: { $0 is SentinelError }) {
                _ = try SignalReader.read(Data(bytes), name: "fuzz", finding: bytes.count % 3 == 0 ? "r" : nil)
            }
        }
        #expect(problems.isEmpty, "\(problems)")
    }
}
