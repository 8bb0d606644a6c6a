/// One line of a source file, by repository-relative path and 1-based line number.
public struct SourceLine: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Path relative to the project root, `/`-separated.
    public var file: String
    /// 1-based line number.
    public var line: Int

    /// Line `line` of `file`.
    public init(file: String, line: Int) {
        self.file = file
        self.line = line
    }

    /// Orders by file, then line.
    public static func < (lhs: SourceLine, rhs: SourceLine) -> Bool {
        (lhs.file, lhs.line) < (rhs.file, rhs.line)
    }

    /// `file:line`.
    public var description: String { "\(file):\(line)" }
}

/// How one test ended.
public enum TestOutcome: String, Sendable, Hashable, CaseIterable {
    /// The test passed (an unexpected pass of a non-strict xfail included).
    case passed
    /// The test failed in its call or in its setup.
    case failed
    /// The test passed but its teardown failed (or it never reported an end).
    case error
    /// The test was skipped or failed as expected (xfail).
    case skipped

    /// Whether the test counts as failing for fault localisation.
    public var isFailing: Bool { self == .failed || self == .error }
}

/// One test of a traced run: its pytest node id, how it ended and the source lines it ran.
public struct TestRun: Sendable, Hashable {
    /// The pytest node id, e.g. `tests/test_x.py::test_y`.
    public var id: String
    /// How it ended.
    public var outcome: TestOutcome
    /// The lines of non-test source files it executed (setup and teardown included).
    public var lines: Set<SourceLine>
    /// Seconds it took under the tracer (setup, call and teardown); nil when not recorded.
    public var seconds: Double? = nil

    /// A test `id` that ended with `outcome` after executing `lines`.
    public init(id: String, outcome: TestOutcome, lines: Set<SourceLine>) {
        self.id = id
        self.outcome = outcome
        self.lines = lines
    }
}

/// Which lines each test of a suite executed and how each test ended: the input of spectrum-based
/// fault localisation (``Ochiai``).
public struct TestSpectrum: Sendable, Hashable {
    /// The tests in the order they ran.
    public var tests: [TestRun]
    /// The files pytest collected tests from, and its conftests.
    public var collected: Set<String> = []
    /// Each project module the run imported, with the project files that imported it (`""`
    /// for an importer outside the project: pytest's own loader).
    public var importers: [String: Set<String>] = [:]
    /// Project files (not Python) the tests opened for reading while they ran.
    public var read: Set<String> = []

    /// A spectrum of `tests`.
    public init(tests: [TestRun]) {
        self.tests = tests
    }

    /// The tests that count as failing.
    public var failingTests: [TestRun] { tests.filter { $0.outcome.isFailing } }

    /// The tests that passed.
    public var passingTests: [TestRun] { tests.filter { $0.outcome == .passed } }
}
