import Git

extension LLMEdits {
    /// The paths among `changes` that are tests or test configuration (`tests/…`, `test_*.py`,
    /// `*_test.py`, `conftest.py`, `pytest.ini`, ...): a fix must not touch them.
    public static func touchesTests(_ changes: [FileChange]) -> [String] {
        changes.map(\.path).filter(isTestPath)
    }

    /// Whether `path` is a test file, lies in a test directory, or configures the test runner
    /// (the regression guard's own test, so that the two never disagree).
    public static func isTestPath(_ path: String) -> Bool {
        RegressionGuard.isTestFile(path)
    }
}
