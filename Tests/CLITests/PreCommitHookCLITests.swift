import Foundation
import Testing

/// The shipped pre-commit hook (`.pre-commit-hooks.yaml`) selects what a commit can leak or pin:
/// the sources of every language the scan reads, requirements files, pyproject.toml, lockfiles and
/// `.env` files (issue 27: it was `types: [python]` only; issue 75: it had no JavaScript or
/// TypeScript). Its `files` pattern is evaluated with Python's `re.search`, as pre-commit does,
/// and the files it selects are scanned by the real binary as the hook would pass them.
@Suite struct PreCommitHookCLITests {
    /// The hook's `files:` pattern, as written in the shipped file (one plain scalar line).
    static func filesPattern() throws -> String {
        let text = try String(contentsOfFile: CLI.packageRoot + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  files: ") })
        return String(line.dropFirst("  files: ".count))
    }

    @Test func theHookSelectsSourcesRequirementsManifestsLockfilesAndEnvFiles() throws {
        let names = [
            "app.py", "pkg/stub.pyi", "requirements.txt", "requirements-dev.in", "sub/poetry.lock", "Pipfile.lock",
            "go.sum", "web/package-lock.json", ".env", "deploy/.env.production", "README.md", "setup.cfg", "envrc",
            "web/src/server.ts", "web/src/App.vue", "lib/util.mjs", "api/pyproject.toml", "dev-requirements.txt",
            "requirements/base.txt", "web/package.json", "api/Cargo.toml",
        ]
        let script = "import re, sys\np = re.compile(sys.argv[1])\nprint('\\n'.join(n for n in sys.argv[2:] if p.search(n)))"
        let result = try CLI.runProgram("/usr/bin/python3", ["-c", script, try Self.filesPattern()] + names)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(
            result.stdout.split(separator: "\n").map(String.init) == [
                "app.py", "pkg/stub.pyi", "requirements.txt", "requirements-dev.in", "sub/poetry.lock", "Pipfile.lock",
                "go.sum", "web/package-lock.json", ".env", "deploy/.env.production", "web/src/server.ts", "web/src/App.vue",
                "lib/util.mjs", "api/pyproject.toml", "dev-requirements.txt", "requirements/base.txt",
            ])
    }

    @Test func aKeyInAStagedEnvFileFailsTheHook() throws {
        let root = NSTemporaryDirectory() + "sentinel-hook-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: root) }
        try "AWS_ACCESS_KEY_ID=\("AKIA" + "Q3EGZT7RKMXJ4HVN")\n".write(toFile: root + "/.env", atomically: false, encoding: .utf8)
        try "print(1)\n".write(toFile: root + "/app.py", atomically: false, encoding: .utf8)
        try "requests==2.32.3\n".write(toFile: root + "/requirements.txt", atomically: false, encoding: .utf8)
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = root + "/home"
        let staged = ["app.py", "requirements.txt", ".env"]
        let result = try CLI.run(["scan", "--allow-missing-db"] + staged, environment: environment, directory: root)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains(".env:1"), "\(result.stdout)")
        let closed = try CLI.run(["scan"] + staged, environment: environment, directory: root)
        #expect(closed.status == 3, "without advisory data a staged lockfile fails closed: \(closed.stderr)")
    }
}
