import Git

extension LLMEdits {
    /// The paths among `changes` that are tests or change how they run (`tests/…`, `test_*.py`,
    /// `conftest.py`, `pytest.ini`, `.npmrc`, `jest.config.js`, the pytest sections of
    /// `pyproject.toml`, `package.json`'s `scripts`, ...): a fix must not touch them.
    public static func touchesTests(_ changes: [FileChange]) -> [String] {
        changes.filter { isTestPath($0.path) || TestRunFiles.changedSetting($0) != nil }.map(\.path)
    }

    /// Whether `path` is a test, lies in a test directory, or changes how the tests run
    /// (``TestRunFiles``, the regression guard's own table, so that the two never disagree).
    public static func isTestPath(_ path: String) -> Bool {
        TestRunFiles.reason(forPath: path) != nil
    }
}
