import Git
import Testing

@testable import Heal

/// Issue 76, H11: "test files themselves if the project already says so": the files a project's
/// own configuration calls tests (pytest's `python_files` and `testpaths`, jest's `testMatch`,
/// mocha's `spec`) are refused like any test, with the setting named.
struct DeclaredTestsTests {
    static func declared(_ files: [String: String]) -> DeclaredTests {
        DeclaredTests(reading: { files[$0] })
    }

    @Test(
        "a file the project's configuration declares a test is refused, naming the setting",
        arguments: [
            (["pytest.ini": "[pytest]\npython_files = check_*.py\n"], "app/check_math.py", "python_files in pytest.ini: check_*.py"),
            (
                [".pytest.ini": "[pytest]\ntestpaths =\n    qa\n    more\n"], "more/helpers.py",
                "testpaths in .pytest.ini: more"
            ),
            (["setup.cfg": "[tool:pytest]\ntestpaths = verify\n"], "verify/x.py", "testpaths in setup.cfg: verify"),
            (
                ["pyproject.toml": "[tool.pytest.ini_options]\npython_files = [\"spec_*.py\"]\n"], "spec_calc.py",
                "python_files in pyproject.toml: spec_*.py"
            ),
            (
                ["package.json": #"{"jest": {"testMatch": ["<rootDir>/checks/**/*.js"]}}"#], "checks/a/b.js",
                "jest.testMatch in package.json: <rootDir>/checks/**/*.js"
            ),
            ([".mocharc.json": #"{"spec": "qa/*.mjs", /* ours */}"#], "qa/math.mjs", "spec in .mocharc.json: qa/*.mjs"),
        ])
    func declaredTestIsRefused(files: [String: String], path: String, setting: String) {
        let declared = Self.declared(files)
        #expect(declared.declaring(path) == setting)
        let refusal = RegressionGuard.refusal([FileChange(path: path, before: "a", after: "b")], declared: declared)
        #expect(refusal == "edits test file \(path) (the project's \(setting))")
    }

    @Test("the code under test stays editable")
    func sourceIsAllowed() {
        let declared = Self.declared([
            "pytest.ini": "[pytest]\npython_files = check_*.py\ntestpaths = qa\n",
            "package.json": #"{"jest": {"testMatch": ["**/checks/**/*.js"]}}"#,
        ])
        #expect(declared.declaring("app/math.py") == nil)
        #expect(declared.declaring("src/checks.js") == nil)
        #expect(RegressionGuard.refusal([FileChange(path: "app/math.py", before: "x = 1\n", after: "x = 2\n")], declared: declared) == nil)
    }
}
