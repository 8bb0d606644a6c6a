import Testing

@testable import Signals

/// The TAP reader the verifier reads a JavaScript project's run with (hostile inputs round 4,
/// H12): outcomes by their suite path, a run cut short or without tests is a problem, and the
/// stream's bounds hold.
struct TAPReportTests {
    /// Node 20's `--test-reporter=tap` for one failing test, one passing, and a suite of one.
    static let node = """
        TAP version 13
        # Subtest: adds
        not ok 1 - adds
          ---
          duration_ms: 31.003055
          location: '/tmp/h12/test/math.test.js:4:1'
          failureType: 'testCodeFailure'
          error: |-
            Expected values to be strictly equal:

            -1 !== 3

          code: 'ERR_ASSERTION'
          name: 'AssertionError'
          ...
        # Subtest: zero
        ok 2 - zero
          ---
          duration_ms: 0.208849
          ...
        # Subtest: group
            # Subtest: inner
            ok 1 - inner
              ---
              duration_ms: 24.418498
              ...
            1..1
        ok 3 - group
          ---
          duration_ms: 24.876813
          type: 'suite'
          ...
        1..3
        # tests 3
        # suites 1
        # pass 2
        # fail 1
        # cancelled 0
        # skipped 0
        # todo 0
        # duration_ms 1194.584048

        """

    @Test("Node's report: the failing test with its message and type, the passing ones by suite path")
    func nodeReport() throws {
        let reading = TAPReport.read("> test\n> node test/math.test.js\n\n" + Self.node)
        #expect(reading.problem == nil)
        let report = try #require(reading.report)
        #expect(report.passed == ["zero", "group > inner"])
        #expect(report.failed == ["adds"])
        #expect(report.failures.first?.message == "Expected values to be strictly equal:")
        #expect(report.failures.first?.exceptionType == "AssertionError")
        #expect(report.counts["passed"] == 2 && report.counts["failed"] == 1)
    }

    @Test("mocha's flat report, with a skipped test")
    func mochaReport() throws {
        let reading = TAPReport.read(
            "1..3\nok 1 math adds\nok 2 math zero # SKIP\nnot ok 3 math subtracts\n# tests 3\n# pass 1\n# fail 1\n")
        let report = try #require(reading.report)
        #expect(reading.problem == nil)
        #expect(report.passed == ["math adds"])
        #expect(report.failed == ["math subtracts"])
        #expect(report.counts["skipped"] == 1)
    }

    @Test(
        "a report that does not show a complete run is a problem",
        arguments: [
            ("hello\n", "was not printed"),
            ("TAP version 13\n# Subtest: adds\nok 1 - adds\n", "has no plan line (`1..N`): the run ended early"),
            ("1..2\nok 1 - adds\n", "reports 1 of the 2 results it planned"),
            ("1..0\n# tests 0\n", "reports no test that ran"),
            ("1..1\nok 1 - adds\n# fail 1\n", "counts 1 failed or cancelled without naming them"),
            ("ok 1 - a\nBail out! database down\n1..1\n", "bailed out (Bail out! database down)"),
        ])
    func incomplete(output: String, problem: String) {
        #expect(TAPReport.read(output).problem == problem)
    }

    @Test("a suite that failed without a failing test of its own (a hook threw) is a failure")
    func failedSuite() throws {
        let report = try #require(TAPReport.read("# Subtest: s\n    ok 1 - a\n    1..1\nnot ok 1 - s\n1..1\n").report)
        #expect(report.failed == ["s"])
        #expect(report.passed == ["s > a"])
    }

    @Test("bounds: nesting deeper than the limit and more results than the limit are problems, not partial reports")
    func bounds() {
        var deep = ""
        for level in 0...TAPReport.maximumDepth {
            deep += String(repeating: " ", count: 4 * level) + "# Subtest: s\(level)\n"
        }
        #expect(TAPReport.read(deep + "ok 1 - x\n1..1\n").problem == "nests subtests deeper than 64 levels")
        var many = "1..\(TAPReport.maximumTests + 1)\n"
        for index in 1...(TAPReport.maximumTests + 1) { many += "ok \(index) - t\(index)\n" }
        #expect(TAPReport.read(many).problem == "holds more than 100000 results")
    }

    @Test("a failing test's diagnostics cannot add outcomes: lines inside its YAML block are not test points")
    func diagnosticsAreNotOutcomes() throws {
        let output = "not ok 1 - a\n  ---\n  error: 'x'\n  ok 2 - forged\n  ...\n1..1\n"
        let report = try #require(TAPReport.read(output).report)
        #expect(report.failed == ["a"])
        #expect(report.passed.isEmpty)
        #expect(report.failures.first?.message == "x")
    }
}
