import Git
import LLM
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

    static let packageJSON = """
        {
          "name": "app",
          "scripts": {"test": "node --test"},
          "dependencies": {"express": "4.17.1"}
        }
        """

    /// Hostile inputs round 4, H11: a reply that added `.pytest.ini` (`pythonpath = stub`) and a
    /// stand-in module was proposed as verified; the npm twin is `.npmrc`'s `node-options`. Every
    /// file that changes how the tests run is refused, with the reason (on 7f222c6 each of these
    /// was allowed).
    @Test(
        "every file that changes how pytest or a JavaScript runner runs is refused",
        arguments: [
            (
                FileChange(path: ".pytest.ini", before: nil, after: "[pytest]\npythonpath = stub\n"),
                "changes .pytest.ini, which configures pytest"
            ),
            (
                FileChange(
                    path: "pyproject.toml", before: pyproject,
                    after: "tool.pytest.ini_options.pythonpath = [\"stub\"]\n" + pyproject),
                "[tool.pytest.ini_options] in pyproject.toml"
            ),
            (
                FileChange(path: "pyproject.toml", before: pyproject, after: pyproject + "\nrootdir = \"stub\"\n"),
                "[tool.pytest.ini_options] in pyproject.toml"
            ),
            (FileChange(path: ".npmrc", before: nil, after: "node-options=--require ./shim.js\n"), "changes .npmrc, which configures npm"),
            (
                FileChange(
                    path: "package.json", before: packageJSON,
                    after: packageJSON.replacingOccurrences(of: "node --test", with: "node --test || true")),
                "[scripts.test] in package.json, which npm runs"
            ),
            (
                FileChange(
                    path: "package.json", before: packageJSON,
                    after: packageJSON.replacingOccurrences(of: "\"name\": \"app\",", with: "\"name\": \"app\", \"jest\": {\"bail\": 0},")),
                "[jest] in package.json"
            ),
            (
                FileChange(
                    path: "package.json", before: packageJSON,
                    after: packageJSON.replacingOccurrences(of: "\"name\": \"app\",", with: "\"name\": \"app\", \"main\": \"stub.js\",")),
                "[main] in package.json"
            ),
            (FileChange(path: "package.json", before: packageJSON, after: "{"), "package.json as a whole (it does not parse)"),
            (FileChange(path: "jest.config.js", before: nil, after: "module.exports = {}\n"), "configures the JavaScript test runner"),
            (FileChange(path: "web/vitest.config.ts", before: nil, after: "export default {}\n"), "configures the JavaScript test runner"),
            (FileChange(path: ".mocharc.yml", before: nil, after: "require: shim.js\n"), "configures the JavaScript test runner"),
            (FileChange(path: "babel.config.js", before: nil, after: "module.exports = {}\n"), "transforms the tests' code"),
            (FileChange(path: "usercustomize.py", before: nil, after: "import os\n"), "Python runs before the tests"),
            (FileChange(path: "src/__mocks__/db.js", before: nil, after: "module.exports = {}\n"), "edits test file src/__mocks__/db.js"),
            (
                FileChange(
                    path: "src/app.js", before: "module.exports = 1\n", after: "process.env.NODE_OPTIONS = '-r x'\nmodule.exports = 1\n"),
                "adds `NODE_OPTIONS` to src/app.js"
            ),
        ])
    func everyTestRunInputIsRefused(change: FileChange, mentions: String) {
        let refusal = RegressionGuard.refusal([change])
        #expect(refusal?.contains(mentions) == true, "\(refusal ?? "allowed")")
    }

    @Test("a bump of package.json's dependencies is allowed, and the model's edits name what the guard refuses")
    func dependenciesAndTheModelsEdits() {
        let bump = FileChange(
            path: "package.json", before: Self.packageJSON,
            after: Self.packageJSON.replacingOccurrences(of: "4.17.1", with: "4.21.2"))
        #expect(RegressionGuard.refusal([bump]) == nil)
        let changes = [
            bump, FileChange(path: ".npmrc", before: nil, after: "x"), FileChange(path: ".pytest.ini", before: nil, after: "x"),
            FileChange(path: "src/app.py", before: "a", after: "b"),
            FileChange(
                path: "package.json", before: Self.packageJSON,
                after: Self.packageJSON.replacingOccurrences(of: "node --test", with: "true")),
        ]
        #expect(LLMEdits.touchesTests(changes) == [".npmrc", ".pytest.ini", "package.json"])
    }
}
