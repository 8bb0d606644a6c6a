import Foundation
import Heal
import Sandbox
import Testing

/// The limits heal derives (no process started).
@Suite("TestTimeLimit: the limits heal derives")
struct TestTimeLimitValueTests {
    @Test("the unchanged tree's tests get a sixth of the baseline's budget, at least 10 s")
    func baselineLimit() {
        #expect(TestTimeLimit.forBaseline(budget: 45) == 10)
        #expect(TestTimeLimit.forBaseline(budget: 225) == 37.5)
        #expect(TestTimeLimit.forBaseline(budget: 10_000_000) == TestTimeLimit.maximum)
    }

    @Test("a candidate's tests get ten times the slowest traced test below the baseline's limit, at least 5 s, at most that limit")
    func candidateLimit() {
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["a": 0.01, "b": 0.2], passing: ["a"]) == 5)
        #expect(TestTimeLimit.forCandidates(base: 30, testSeconds: ["a": 0.01, "b": 1.2], passing: ["a", "b"]) == 12)
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["a": 3], passing: ["a"]) == 10)
        // The tests that ran into the baseline's limit (they looped) do not set the scale.
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["loops": 10.02, "a": 0.1], passing: ["a"]) == 5)
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["loops": 10.02], passing: []) == 10)
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: [:], passing: []) == 10)
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["odd": .nan, "neg": -1], passing: []) == 10)
        // A test that passed untraced but ran into the limit under the tracer, or was not timed:
        // a candidate's tests keep the whole limit.
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["slow": 10.01, "a": 0.1], passing: ["slow", "a"]) == 10)
        #expect(TestTimeLimit.forCandidates(base: 10, testSeconds: ["a": 0.1], passing: ["untimed", "a"]) == 10)
    }

    @Test("the unchanged tree's tests that ran into the limit and the signal does not name are reported")
    func cutTests() {
        let seconds = ["loops": 10.01, "slow": 9.5, "quick": 0.1]
        #expect(TestTimeLimit.cut(base: 10, testSeconds: seconds, failing: ["loops", "slow", "quick"], named: ["loops"]) == ["slow"])
        #expect(TestTimeLimit.cut(base: 10, testSeconds: seconds, failing: ["quick"], named: []) == [])
    }

    @Test("the variable's value is the limit in seconds, kept within (0, a day]")
    func environmentValue() {
        #expect(TestTimeLimit.environmentValue(2) == "2.000")
        #expect(TestTimeLimit.environmentValue(0) == "0.001")
        #expect(TestTimeLimit.environmentValue(1e12) == "86400.000")
    }
}

/// The plugin itself, in Debian's pytest on the host.
@Suite("TestTimeLimit: the pytest plugin", .enabled(if: PythonProject.hasPytest, "needs /usr/bin/python3 with pytest"))
struct TestTimeLimitPluginTests {
    static let power = """
        def power_at_least(x):
            p = 1
            while p < x:
                p = p * 1
            return p

        """

    static let tests = """
        import pytest
        from power import power_at_least


        def test_one():
            assert power_at_least(1) == 1


        def test_loops():
            assert power_at_least(5) == 8


        def test_expects_any_exception():
            with pytest.raises(Exception):
                power_at_least(5)


        def test_bare_except():
            try:
                power_at_least(5)
            except:
                return
            assert False


        def test_retries_three_times():
            tries = 0
            while tries < 3:
                try:
                    power_at_least(5)
                except BaseException:
                    tries += 1


        def test_after():
            assert power_at_least(0) == 2

        """

    func run(limit: String?, files: [String: String] = [:]) throws -> (status: Int32, output: String) {
        let project = try PythonProject(files: ["power.py": Self.power, "test_power.py": Self.tests].merging(files) { $1 })
        defer { project.remove() }
        return try project.pytest(
            ["-q", "-rA"], addopts: TestTimeLimit.pytestOption,
            environment: limit.map { [TestTimeLimit.environmentVariable: $0] } ?? [:])
    }

    @Test("a test past the limit fails where it loops, whatever it catches, and the run goes on")
    func loopingTestsFail() throws {
        let run = try run(limit: "0.5")
        #expect(run.status == 1, "\(run.output)")
        for name in ["test_loops", "test_expects_any_exception", "test_bare_except", "test_retries_three_times"] {
            #expect(run.output.contains("FAILED test_power.py::\(name)"), "\(name)\n\(run.output)")
        }
        // Each says why (the two that caught it: their report is the limit's message alone).
        #expect(run.output.components(separatedBy: "Failed: the test used more than 0.5 s of CPU time").count - 1 >= 4)
        // The one after the loops ran; the assertion a loop never reached is no one's failure.
        #expect(run.output.contains("FAILED test_power.py::test_after - assert 1 == 2"), "\(run.output)")
        #expect(run.output.contains("PASSED test_power.py::test_one"))
        // The traceback ends in the loop, not in the plugin.
        #expect(
            run.output.contains("power.py:3: Failed") || run.output.contains("power.py:4: Failed"),
            "\(run.output)")
        #expect(!run.output.contains("def _expired"), "\(run.output)")
    }

    @Test("an xfail mark does not excuse a loop, and the tests named with a longer limit get it")
    func xfailAndLonger() throws {
        let tests = """
            import time
            import pytest
            from power import power_at_least


            @pytest.mark.xfail(reason="known")
            def test_xfail_loops():
                assert power_at_least(5) == 8


            def burn(seconds):
                started = time.process_time()
                while time.process_time() - started < seconds:
                    pass


            def test_longer():
                burn(1)


            def test_burns():
                burn(1)

            """
        let project = try PythonProject(files: ["power.py": Self.power, "test_power.py": tests])
        defer { project.remove() }
        let longer = try #require(TestTimeLimit.Longer(seconds: 30, tests: ["test_power.py::test_longer"]).environmentValue)
        let run = try project.pytest(
            ["-q", "-rA"], addopts: TestTimeLimit.pytestOption,
            environment: [TestTimeLimit.environmentVariable: "0.3", TestTimeLimit.longerVariable: longer])
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("FAILED test_power.py::test_xfail_loops"), "\(run.output)")
        #expect(!run.output.contains("xfailed"), "\(run.output)")
        #expect(run.output.contains("PASSED test_power.py::test_longer"), "\(run.output)")
        #expect(run.output.contains("FAILED test_power.py::test_burns"), "\(run.output)")
    }

    @Test("too many tests to name with a longer limit: every test gets it")
    func longerTooMany() throws {
        let many = (0...TestSelection.maximumTests).map { "t.py::test_\($0)" }
        #expect(TestTimeLimit.Longer(seconds: 10, tests: many).environmentValue == nil)
        let verifier = Verifier(profile: try ProfileStore.standard(syntax: .yaml).resolve("fix-verify"), command: "pytest")
        let limited = verifier.limitingTests(to: 5, longer: TestTimeLimit.Longer(seconds: 10, tests: many))
        #expect(limited.testCPUSeconds == 10 && limited.longerTests == nil)
        let named = verifier.limitingTests(to: 5, longer: TestTimeLimit.Longer(seconds: 10, tests: ["t.py::test_a"]))
        #expect(named.testCPUSeconds == 5 && named.longerTests?.tests == ["t.py::test_a"])
        #expect(verifier.limitingTests(to: 5, longer: TestTimeLimit.Longer(seconds: 4, tests: ["x"])).longerTests == nil)
    }

    @Test("a project's own SIGPROF handler (a profiler) keeps SIGPROF, and a value that is no limit limits nothing")
    func standsAside() throws {
        let quick = "test_power.py"
        let mine = """
            import signal


            def mine(signum, frame):
                pass


            def pytest_configure(config):
                signal.signal(signal.SIGPROF, mine)

            """
        let check = """
            import signal


            def test_handler_is_the_projects():
                assert signal.getsignal(signal.SIGPROF).__name__ == "mine"

            """
        let owned = try run(limit: "0.5", files: [quick: check, "conftest.py": mine])
        #expect(owned.status == 0, "\(owned.output)")
        let unlimited = "def test_fine():\n    import signal\n    assert signal.getsignal(signal.SIGPROF) == signal.SIG_DFL\n"
        for value in ["abc", "0", "-3", "inf", "nan", ""] {
            let run = try run(limit: value, files: [quick: unlimited])
            #expect(run.status == 0, "\(value): \(run.output)")
        }
    }
}
