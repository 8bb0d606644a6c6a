import Git
import Testing

@testable import Heal

/// Hostile inputs round 3, finding 3: a reply that added `-p plugin` to `pyproject.toml` and a
/// plugin turning failures into passes was "verified twice". What configures the test run, what
/// Python runs before it, and a pytest hook or plugin are the tests' own: a candidate may not add
/// or change them.
struct TestRunConfigurationGuardTests {
    static let pyproject = """
        [project]
        name = "app"
        dependencies = ["requests==2.19.0"]

        [tool.pytest.ini_options]
        testpaths = ["tests"]
        """

    @Test(
        "pytest configuration, plugins, hooks and startup files are refused",
        arguments: [
            (
                FileChange(
                    path: "pyproject.toml", before: pyproject,
                    after: pyproject.replacingOccurrences(
                        of: "testpaths = [\"tests\"]", with: "testpaths = [\"tests\"]\naddopts = \"-p passer\"")),
                "tool.pytest.ini_options"
            ),
            (
                FileChange(path: "setup.cfg", before: "[metadata]\nname = app\n", after: "[metadata]\nname = app\n[tool:pytest]\nx = 1\n"),
                "tool:pytest"
            ),
            (
                FileChange(
                    path: "passer.py", before: nil,
                    after: "def pytest_runtest_makereport(item, call):\n    pass\n"), "pytest_runtest_"
            ),
            (FileChange(path: "src/app/__init__.py", before: "", after: "pytest_plugins = ['passer']\n"), "pytest_plugins"),
            (FileChange(path: "sitecustomize.py", before: nil, after: "import os\n"), "sitecustomize.py"),
            (FileChange(path: "venv-hook.pth", before: nil, after: "import passer\n"), "venv-hook.pth"),
        ])
    func refused(change: FileChange, mentions: String) {
        let refusal = RegressionGuard.refusal([change])
        #expect(refusal?.contains(mentions) == true, "\(refusal ?? "allowed")")
    }

    @Test("a dependency bump's edit of pyproject.toml outside pytest's sections is allowed")
    func bumpIsAllowed() {
        let change = FileChange(
            path: "pyproject.toml", before: Self.pyproject,
            after: Self.pyproject.replacingOccurrences(of: "requests==2.19.0", with: "requests==2.31.0"))
        #expect(RegressionGuard.refusal([change]) == nil)
    }
}
