import Findings
import Support
import Testing
@testable import Scan

@Suite struct DefaultIgnoresTests {
    @Test(arguments: [
        "tests/test_views.py", "src/app/tests/helpers.py", "test/units/module.py", "lib/sqlalchemy/testing/fixtures.py",
        "test_api.py", "pkg/api_test.py", "conftest.py", "pkg/conftest.py",
        ".venv/lib/x.py", "venv/x.py", "web/node_modules/a/index.js", "vendor/lib.py", "third_party/six.py",
        "lib/python3.11/site-packages/yaml/__init__.py", "build/lib/app.py", "dist/app.py", ".tox/py/x.py",
        ".eggs/x.py", "pkg/__pycache__/a.py", "a//tests//x.py", "é/tests/ü.py", "src/test_ü.py",
        // JavaScript and TypeScript tests, as Jest, Vitest and Mocha find them.
        "server/routes/documents.test.ts", "app/Button.test.tsx", "src/api.spec.js", "src/View.spec.jsx",
        "lib/x.test.mjs", "lib/x.spec.cts", "src/__tests__/util.js", "src/__mocks__/fs.ts",
    ])
    func ignoredByDefault(path: String) {
        #expect(DefaultIgnores().ignores(path))
        #expect(!DefaultIgnores(enabled: false).ignores(path))
    }

    @Test(arguments: [
        "app.py", "src/testimony.py", "contest.py", "pkg/testing_utils.py", "pkg/test.py", "pkg/latest/x.py",
        "builder/app.py", "distutils/x.py", "docs/build.py", "attest_test.txt", "tests", "pkg/build", "", "/",
        // Named like tests without being a test runner's file.
        "src/test.ts", "src/contest.js", "src/latest.spec.md", "src/tests.ts", "src/inspect.js", "src/x.test.tsx.map",
    ])
    func scannedByDefault(path: String) {
        #expect(!DefaultIgnores().ignores(path))
    }

    /// Hostile inputs rounds 2–3: a command injection under `app/build/` was not reported. An
    /// output directory is generated at the root or beside a package manifest; elsewhere it is source.
    @Test func anOutputDirectoryIsLeftOutOnlyWhereABuildWritesIt() {
        let ignores = DefaultIgnores(packageDirectories: ["packages/web", "lib"])
        for path in [
            "build/lib/app.py", "dist/app.js", "packages/web/dist/x.js", "lib/build/x.py", "app/tests/x.py", "a/node_modules/x.js",
        ] {
            #expect(ignores.ignores(path), "\(path)")
        }
        for path in ["app/build/run.py", "packages/web/src/build/x.js", "packages/dist/x.js", "src/app/dist/x.py"] {
            #expect(!ignores.ignores(path), "\(path)")
        }
        #expect(
            DefaultIgnores.packageDirectories(["pyproject.toml", "packages/web/package.json", "lib/setup.py", "x/readme.md"]) == [
                "", "packages/web", "lib",
            ])
    }

    @Test func testPathsAreOnlyTheTestPatterns() {
        #expect(DefaultIgnores.isTestPath("tests/test_x.py"))
        #expect(DefaultIgnores.isTestPath("pkg/foo_test.py"))
        #expect(!DefaultIgnores.isTestPath("node_modules/x.py"))
        #expect(!DefaultIgnores.isTestPath("pkg/app.py"))
    }

    @Test func partitionCountsAndAnIncludeReadmits() {
        let files = ["app.py", "tests/test_app.py", "tests/data/x.py", "build/app.py"]
        let (kept, excluded) = DefaultIgnores().partition(files)
        #expect(kept == ["app.py"])
        #expect(excluded == ["tests/test_app.py", "tests/data/x.py", "build/app.py"])
        let readmitted = DefaultIgnores().partition(files, include: [Glob("tests/**")])
        #expect(readmitted.kept == ["app.py", "tests/test_app.py", "tests/data/x.py"])
        #expect(readmitted.excluded == ["build/app.py"])
    }

    @Test func assertUsedIsDroppedOnlyInTests() {
        let findings = [
            Finding(ruleId: "python.assert-used", severity: .low, message: "m", location: Location(file: "tests/test_a.py", startLine: 1)),
            Finding(ruleId: "bandit.B101", severity: .low, message: "m", location: Location(file: "pkg/conftest.py", startLine: 1)),
            Finding(ruleId: "python.assert-used", severity: .low, message: "m", location: Location(file: "pkg/auth.py", startLine: 3)),
            Finding(ruleId: "python.eval-used", severity: .high, message: "m", location: Location(file: "tests/test_a.py", startLine: 2)),
        ]
        let kept = TestCodeNoise.filter(findings)
        #expect(kept.map(\.location.file) == ["pkg/auth.py", "tests/test_a.py"])
        #expect(kept.map(\.ruleId) == ["python.assert-used", "python.eval-used"])
    }
}
