#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import TestSupport
import Testing

/// The programs Sentinel runs confined keep working under the default seccomp policy (an
/// allow-list: a syscall it does not name answers ENOSYS), each through `sentinel sandbox run`
/// with the profile that ships for it. curl through the egress proxy is EgressCLITests'
/// `allowedHostIsReachableThroughTheProxy`, under the same default policy.
@Suite(.serialized, .enabled(if: TestHost.canSandbox, "needs root and user namespaces"))
struct SeccompCompatibilityCLITests {
    static let tools = "/opt/sentinel-tools/venv/bin"
    static func installed(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    /// A fresh, world-readable workspace holding `files` (relative path → text).
    private func workspace(_ files: [String: String]) throws -> String {
        let directory = NSTemporaryDirectory() + "sentinel-seccomp-\(UUID().uuidString)"
        for (name, text) in files {
            let path = directory + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        chmod(directory, 0o755)
        return directory
    }

    private func sandboxed(
        _ directory: String, profile: String? = nil, _ command: [String],
        timeout: Double = 120
    ) throws -> CLI.Result {
        var arguments = ["sandbox", "run", "--workspace", directory]
        if let profile { arguments += ["--profile", profile] }
        return try CLI.run(arguments + ["--"] + command, timeout: timeout)
    }

    static let vulnerable = "import subprocess\n\ndef run(cmd):\n    return eval(cmd)\n"

    @Test(.enabled(if: installed(tools + "/bandit"), "needs Bandit in /opt/sentinel-tools (make deps)"))
    func banditReportsUnderScanBandit() throws {
        let directory = try workspace(["app.py": Self.vulnerable])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try sandboxed(directory, profile: "scan-bandit", ["bandit", "-q", "-f", "json", "-r", "."])
        #expect(result.status == 1, "Bandit exits 1 when it reports: \(result.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let ids = (json?["results"] as? [[String: Any]] ?? []).compactMap { $0["test_id"] as? String }
        #expect(ids.contains("B307"), "\(result.stdout.prefix(400))")
    }

    @Test(.enabled(if: installed(tools + "/semgrep"), "needs Semgrep in /opt/sentinel-tools (make deps)"))
    func semgrepRunsALocalRuleUnderScanSemgrep() throws {
        let rule = """
            rules:
              - id: eval-used
                pattern: eval(...)
                message: eval
                languages: [python]
                severity: ERROR

            """
        let directory = try workspace(["app.py": Self.vulnerable, "rule.yaml": rule])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try sandboxed(
            directory, profile: "scan-semgrep",
            [
                "semgrep", "--config", "/workspace/rule.yaml", "--json", "--metrics", "off", "--disable-version-check",
                "app.py",
            ],
            timeout: 600)
        #expect(result.status == 0, "\(result.stderr.suffix(800))")
        let json = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        let findings = (json?["results"] as? [[String: Any]] ?? []).map {
            "\($0["check_id"] as? String ?? "?") \($0["path"] as? String ?? "?")"
        }
        #expect(findings == ["eval-used app.py"], "\(result.stdout.prefix(400))")
    }

    /// Threads, a multiprocessing pool, asyncio, socket pairs, an IPv6 UDP socket, sqlite, urandom.
    @Test(.enabled(if: installed("/usr/bin/python3"), "needs python3"))
    func pythonRuntimeFeatures() throws {
        let script = """
            import asyncio, multiprocessing, os, socket, sqlite3, threading
            if __name__ == "__main__":
                with multiprocessing.Pool(2) as pool: print(pool.map(abs, [-1, -2]))
                print(asyncio.run(asyncio.sleep(0, "async")))
                a, b = socket.socketpair(); a.send(b"x"); print(b.recv(1))
                socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).close()
                out = []; t = threading.Thread(target=lambda: out.append(1)); t.start(); t.join()
                print(sqlite3.connect(":memory:").execute("select 1").fetchone(), out, len(os.urandom(4)))

            """
        let directory = try workspace(["features.py": script])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try sandboxed(directory, ["python3", "features.py"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "[1, 2]\nasync\nb'x'\n(1,) [1] 4\n")
    }

    /// A wheel from a local directory, no index: what a fix-verify run does to set up a project.
    @Test(.enabled(if: installed(tools + "/pip") && installed("/usr/bin/python3"), "needs pip in /opt/sentinel-tools"))
    func pipInstallsALocalWheelUnderFixVerify() throws {
        let directory = try workspace([:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.writeWheel(into: directory + "/wheels")
        let result = try sandboxed(
            directory, profile: "fix-verify",
            [
                "sh", "-c",
                "pip install -q --disable-pip-version-check --no-index --find-links /workspace/wheels --target /tmp/site "
                    + "sentinel-demo && PYTHONPATH=/tmp/site python3 -c 'import sentinel_demo; print(sentinel_demo.VALUE)'",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "42\n")
    }

    @Test(.enabled(if: installed("/usr/bin/git"), "needs git"))
    func gitInitCommitAndLog() throws {
        let directory = try workspace([:])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try sandboxed(
            directory,
            [
                "sh", "-c",
                "git init -q /tmp/repo && cd /tmp/repo && echo hi > f && git add f && "
                    + "git -c user.name=t -c user.email=t@example.com commit -q -m first && git log --format=%s",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "first\n")
    }

    /// A project's own test suite (unittest: the tools venv has no pytest) with threads and
    /// subprocesses, in the overlay workspace of fix-verify.
    @Test(.enabled(if: installed("/usr/bin/python3"), "needs python3"))
    func unittestSuiteUnderFixVerify() throws {
        let tests = """
            import os, subprocess, sys, tempfile, threading, unittest
            from calc import add

            class CalcTests(unittest.TestCase):
                def test_add(self):
                    self.assertEqual(add(2, 3), 5)

                def test_in_a_thread(self):
                    out = []
                    thread = threading.Thread(target=lambda: out.append(add(1, 1)))
                    thread.start(); thread.join()
                    self.assertEqual(out, [2])

                def test_subprocess(self):
                    run = subprocess.run([sys.executable, "-c", "print(7)"], capture_output=True, text=True)
                    self.assertEqual(run.stdout, "7\\n")

                def test_writes_files(self):
                    with open("written.txt", "w") as f: f.write("x")
                    with tempfile.TemporaryDirectory() as d:
                        with open(os.path.join(d, "f"), "w") as f: f.write("x")

            """
        let directory = try workspace([
            "calc.py": "def add(a, b):\n    return a + b\n", "tests/__init__.py": "", "tests/test_calc.py": tests,
        ])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try sandboxed(directory, profile: "fix-verify", ["python3", "-m", "unittest"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("Ran 4 tests"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\nOK\n"), "\(result.stderr)")
    }

    /// A minimal pure-Python wheel (sentinel_demo, VALUE = 42), written by the host's python3.
    static func writeWheel(into directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let script = """
            import base64, hashlib, sys, zipfile
            info = "sentinel_demo-1.0.dist-info/"
            files = {"sentinel_demo/__init__.py": b"VALUE = 42\\n",
                     info + "METADATA": b"Metadata-Version: 2.1\\nName: sentinel-demo\\nVersion: 1.0\\n",
                     info + "WHEEL": b"Wheel-Version: 1.0\\nGenerator: test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n"}
            record = [name + ",sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                      + "," + str(len(data)) for name, data in files.items()] + [info + "RECORD,,"]
            with zipfile.ZipFile(sys.argv[1] + "/sentinel_demo-1.0-py3-none-any.whl", "w") as wheel:
                for name, data in files.items(): wheel.writestr(name, data)
                wheel.writestr(info + "RECORD", "\\n".join(record) + "\\n")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, directory]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: directory])
        }
        chmod(directory, 0o755)
        chmod(directory + "/sentinel_demo-1.0-py3-none-any.whl", 0o644)
    }
}
