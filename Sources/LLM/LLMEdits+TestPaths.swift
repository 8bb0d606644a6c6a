import Git

extension LLMEdits {
    /// The paths among `changes` that are tests or test configuration (`tests/…`, `test_*.py`,
    /// `*_test.py`, `conftest.py`, `pytest.ini`, ...): a fix must not touch them.
    public static func touchesTests(_ changes: [FileChange]) -> [String] {
        changes.map(\.path).filter(isTestPath)
    }

    /// Whether `path` is a test file, lies in a test directory, or configures the test runner
    /// (the regression guard's own test, so that the two never disagree): a file in a `test`,
    /// `tests`, `testing` or `__tests__` directory, `test_*.py`, `*_test.py`, `*_tests.py`,
    /// `conftest.py`, `pytest.ini`, `tox.ini`, `noxfile.py`, and other ecosystems' `*_test.go`,
    /// `*_spec.rb`, `*.test.*`, `*.spec.*`.
    public static func isTestPath(_ path: String) -> Bool {
        let parts = path.lowercased().split(separator: "/").map(String.init)
        guard let name = parts.last else { return false }
        let testDirectories: Set<String> = ["test", "tests", "testing", "__tests__"]
        if parts.dropLast().contains(where: testDirectories.contains) { return true }
        if ["conftest.py", "pytest.ini", "tox.ini", "noxfile.py"].contains(name) { return true }
        if name.hasPrefix("test_") && name.hasSuffix(".py") { return true }
        let suffixes = ["_test.py", "_tests.py", "_test.go", "_test.rb", "_spec.rb"]
        if suffixes.contains(where: name.hasSuffix) { return true }
        return name.contains(".test.") || name.contains(".spec.")
    }
}
