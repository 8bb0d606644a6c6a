import Foundation
import Support

/// A pytest plugin that fails a test where it runs once it has used more CPU time than heal
/// allows one test: a test that loops forever on the unchanged tree (a missing increment, a loop
/// condition that never turns false) is a failing test with a traceback at the loop, not a
/// baseline that times out and ends the heal; a candidate that makes a test loop costs that
/// test's limit, not the whole run's wall-clock limit.
///
/// CPU time (`ITIMER_PROF`, `SIGPROF`), not wall-clock time: a loop burns CPU however loaded the
/// machine is, and `SIGALRM` belongs to the project (a judge's own time limit uses it). The limit
/// raises pytest's `Failed`, a `BaseException`: neither `except Exception` in the code nor
/// `pytest.raises(Exception)` in a test takes it for the error a test expects, and a test whose
/// limit fired is reported failed even if it swallowed that with a bare `except`. It fires again
/// every quarter of the limit while the test runs (a retry loop that catches everything runs on
/// to the run's own wall-clock limit). Time spent in child processes is not counted (a test
/// waiting on one uses no CPU of its own).
///
/// The module sits beside the coverage tracer and the test selection (same directory, reached the
/// same ways) and is loaded with ``pytestOption``; the limit comes in ``environmentVariable`` in
/// seconds, and tests with a limit of their own in ``longerVariable``. A value that is not a
/// positive number, or a `SIGPROF` handler the project installed (a profiler), leaves the run
/// unlimited (the run's `Verification.testCPUSeconds` records the limit asked for). An `xfail`
/// mark does not excuse a test whose limit fired.
public enum TestTimeLimit {
    /// The plugin's module name.
    public static let moduleName = "sentinel_heal_limit"
    /// The pytest option that loads it.
    public static let pytestOption = "-p \(moduleName)"
    /// The variable holding the limit, CPU seconds per test phase (setup, call, teardown).
    public static let environmentVariable = "SENTINEL_HEAL_TEST_CPU_SECONDS"
    /// The variable naming tests with a limit of their own: `{"seconds": S, "tests": [node ids]}`.
    /// Candidates give the tests that failed on the unchanged tree the baseline's limit: how long
    /// a fixed test runs is not known from how quickly it failed.
    public static let longerVariable = "SENTINEL_HEAL_TEST_CPU_LONGER"

    /// Tests with a limit of their own (``longerVariable``).
    public struct Longer: Sendable, Hashable, Encodable {
        /// Their limit, seconds.
        public var seconds: Double
        /// Their node ids.
        public var tests: [String]

        /// The variable's value; nil past ``TestSelection``'s bounds on ids (200, 64 KiB), where
        /// the caller gives every test this limit instead.
        public var environmentValue: String? {
            guard tests.count <= TestSelection.maximumTests, let data = try? JSONEncoder().encode(self),
                data.count <= TestSelection.maximumBytes
            else { return nil }
            return String(decoding: data, as: UTF8.self)
        }

        /// `tests` limited to `seconds`.
        public init(seconds: Double, tests: [String]) {
            self.seconds = seconds
            self.tests = tests
        }
    }
    /// The least limit heal derives for a candidate's runs, seconds: ten times the slowest test
    /// of the traced baseline, never below this (a quick suite's tests take milliseconds).
    public static let candidateFloor = 5.0
    /// The least limit heal derives for the unchanged tree's runs, seconds.
    public static let baselineFloor = 10.0
    /// The most a limit may be (a day): `--test-timeout` beyond it is a usage error.
    public static let maximum = 86_400.0

    /// Writes the plugin as `<moduleName>.py` into `directory` (the tracer's, which must exist).
    public static func install(into directory: String) throws {
        try PreparedOutputFile(path: directory + "/" + moduleName + ".py").write(pluginSource)
    }

    /// The variable's value for `seconds`.
    public static func environmentValue(_ seconds: Double) -> String {
        String(format: "%.3f", min(max(seconds, 0.001), maximum))
    }

    /// The limit for the unchanged tree's runs when the user gave none: a sixth of the baseline's
    /// budget (a few tests that loop must leave it time to finish), at least ``baselineFloor``.
    public static func forBaseline(budget: Double) -> Double {
        min(maximum, max(baselineFloor, budget / 6))
    }

    /// The limit for a candidate's runs when the user gave none: ten times the slowest test the
    /// traced baseline timed that stayed clear of `base` (its seconds include the tracer's cost,
    /// so an untraced run has more room still), at least ``candidateFloor``, never more than
    /// `base`. It stays `base` when no test was so timed (all of them looped), and when a test
    /// that passed on the unchanged tree was not (it passed untraced but not under the tracer,
    /// or was never timed): a smaller limit could fail it in every candidate.
    public static func forCandidates(base: Double, testSeconds: [String: Double], passing: Set<String>) -> Double {
        func clear(_ seconds: Double) -> Bool { seconds.isFinite && seconds >= 0 && !reached(seconds, base) }
        guard passing.allSatisfy({ testSeconds[$0].map(clear) ?? false }),
            let slowest = testSeconds.values.filter(clear).max()
        else { return base }
        return min(base, max(candidateFloor, 10 * slowest))
    }

    /// The tests of `failing` (the unchanged tree's) that the traced baseline timed at `base` or
    /// near it, and the signal does not name: most likely cut by the limit (slow rather than
    /// broken), and no candidate is held to pass them.
    public static func cut(base: Double, testSeconds: [String: Double], failing: [String], named: Set<String>) -> [String] {
        failing.filter { !named.contains($0) && (testSeconds[$0].map { reached($0, base) } ?? false) }.sorted()
    }

    /// Whether a test the tracer timed at `seconds` ran into the limit `base` (the timer fires
    /// within a tenth of it: the tracer's clock is wall time, the limit CPU time).
    static func reached(_ seconds: Double, _ base: Double) -> Bool { seconds >= 0.9 * base }

    /// The plugin's Python source (Python 3.8+, pytest 6.2+).
    public static let pluginSource = #"""
        """Sentinel heal: fail a test that uses more CPU time than SENTINEL_HEAL_TEST_CPU_SECONDS.

        pytest.fail is raised where the test's code runs when the process's CPU time (ITIMER_PROF)
        passes the limit within one test phase; a phase whose limit fired is reported failed. The
        tests SENTINEL_HEAL_TEST_CPU_LONGER names ({"seconds": S, "tests": [node ids]}) get S.
        """
        import json
        import math
        import os
        import signal
        import threading

        import pytest


        def _seconds(value):
            if isinstance(value, bool) or not isinstance(value, (int, float, str)):
                return None
            try:
                value = float(value)
            except ValueError:
                return None
            if not (value > 0) or math.isinf(value):
                return None
            return value


        def _longer():
            try:
                value = json.loads(os.environ.get("SENTINEL_HEAL_TEST_CPU_LONGER", ""))
            except ValueError:
                return None, frozenset()
            if not isinstance(value, dict) or not isinstance(value.get("tests"), list):
                return None, frozenset()
            seconds = value.get("seconds")
            if isinstance(seconds, str):
                return None, frozenset()
            return _seconds(seconds), frozenset(t for t in value["tests"] if isinstance(t, str))


        LIMIT = _seconds(os.environ.get("SENTINEL_HEAL_TEST_CPU_SECONDS", ""))
        LONGER, LONGER_TESTS = _longer()
        _state = {"armed": None, "fired": None, "installed": False, "previous": None}


        def _expired(signum, frame):
            __tracebackhide__ = True
            limit = _state["armed"]
            if limit is None:
                return
            _state["fired"] = "the test used more than %g s of CPU time (sentinel heal's limit per test)" % limit
            pytest.fail(_state["fired"], pytrace=True)


        def pytest_configure(config):
            if LIMIT is None or threading.current_thread() is not threading.main_thread():
                return
            if not hasattr(signal, "setitimer"):
                return
            current = signal.getsignal(signal.SIGPROF)
            if current not in (signal.SIG_DFL, None):
                return  # the project's own profiler owns SIGPROF
            _state["previous"] = current
            signal.signal(signal.SIGPROF, _expired)
            _state["installed"] = True


        def pytest_unconfigure(config):
            if _state["installed"]:
                _state["installed"] = False
                if signal.getsignal(signal.SIGPROF) is _expired:
                    signal.setitimer(signal.ITIMER_PROF, 0)
                    signal.signal(signal.SIGPROF, _state["previous"] or signal.SIG_DFL)


        def _phase(item):
            # A phase's report sees whether its limit fired (subtests report more than once).
            _state["fired"] = None
            # Not while another handler holds SIGPROF (a profiler the project started since).
            if not _state["installed"] or signal.getsignal(signal.SIGPROF) is not _expired:
                yield
                return
            limit = LONGER if LONGER is not None and item.nodeid in LONGER_TESTS else LIMIT
            _state["armed"] = limit
            # Again every quarter of the limit (at least 0.5 s) while the phase runs: a loop that
            # caught it once is failed again until it gives up.
            signal.setitimer(signal.ITIMER_PROF, limit, max(0.5, limit / 4))
            try:
                yield
            finally:
                signal.setitimer(signal.ITIMER_PROF, 0)
                _state["armed"] = None


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_setup(item):
            yield from _phase(item)


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_call(item):
            yield from _phase(item)


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_teardown(item, nextitem):
            yield from _phase(item)


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            fired = _state["fired"]
            if fired is None:
                return
            report = outcome.get_result()
            # An xfail mark does not excuse a loop (pytest would count it as expected), and a
            # test that caught pytest's Failed itself (a bare except) still failed.
            if hasattr(report, "wasxfail"):
                del report.wasxfail
            if not report.failed:
                report.outcome = "failed"
                report.longrepr = "Failed: " + fired
        """#
}
