import Foundation
import TestSupport
import Testing

/// Every example of the README runs (issue 56): each line of each ```sh block, in order, in bash
/// with the real binary, in the project its section describes — a service with a finding and PyPI
/// and npm lockfiles (against a loopback OSV mirror), a project whose test fails for heal — and
/// exits as `expected` says. A README line this table does not know fails the test, so the two are
/// kept in step. The ```sh install blocks are the packaging tests' (DebPackageCLITests,
/// ContainerImageCLITests, DistributionCLITests); the workflow is CIRecipeCLITests'.
@Suite(
    "README examples", .serialized,
    .enabled(
        if: TestHost.canSandbox && PythonHost.hasPytest && FileManager.default.isExecutableFile(atPath: "/usr/bin/zip"),
        "scans and heals in the sandbox: needs root, user namespaces, python3-pytest and zip"))
struct ReadmeExamplesCLITests {
    /// Each README command (its trailing comment dropped) and the statuses it may exit with.
    static let expected: [String: Set<Int32>] = [
        "sentinel init": [0],
        "sentinel db update --for .": [0],
        "sentinel scan .": [1],  // the service's yaml.load
        "sentinel db import osv-export/": [0],
        "sentinel db status": [0],
        "sentinel scan . --max-db-age 14d": [1],
        "sentinel config show": [0],
        "sentinel config show --fail-on medium --exclude 'docs/**'": [0],
        "python3 -m pytest -q > pytest.txt": [1],  // the failing test is the signal
        "sentinel heal --signal pytest.txt --repo . --verify \"python3 -m pytest -q\" --level proposer": [0],
        "sentinel proposals list": [0],
        "sentinel fleet worker --repository-root \"$PWD/..\" &": [0],
        "sentinel fleet submit scan \"$PWD\" --tools native,secrets": [0],
        "sentinel fleet status": [0],
        "sentinel sandbox run --profile minimal -- /bin/sh -c 'echo \"uid $(id -u) in $(hostname)\"; ls /'": [0],
        "sentinel sandbox profiles": [0],
        "sentinel doctor": [0],
    ]

    /// Each README install line (```sh install) and the test that runs it as written.
    static let installs: [String: String] = [
        "sudo apt-get install ./dist/sentinel_0.1.0_amd64.deb": "DebPackageCLITests: apt-get install -y ./sentinel_*.deb in a clean root",
        "sudo podman run --rm --user \"$(id -u):$(id -g)\" --security-opt unmask=ALL --cap-drop ALL --security-opt no-new-privileges -v \"$PWD:/src:ro\" localhost/sentinel:0.1.0 scan /src":
            "ContainerImageCLITests: podman run --rm --user OWNER --security-opt unmask=ALL --cap-drop ALL --security-opt no-new-privileges -v TREE:/src:ro IMAGE scan /src",
        "sudo apt-get install --no-install-recommends libcurl4 libsqlite3-0 libseccomp2 libssl3 zlib1g libstdc++6 libjemalloc2 libpq5 # the runtime libraries":
            "DistributionCLITests: the root holds exactly these packages",
        "sudo tar -xzf dist/sentinel-0.1.0-linux-x86_64.tar.gz -C /usr/local --strip-components=1":
            "DistributionCLITests: the tarball unpacked with --strip-components=1",
    ]

    /// The install lines name the version this checkout builds, and each is one a packaging test runs.
    @Test func everyInstallLineIsOneAPackagingTestRuns() throws {
        let lines = try Self.blocks(fence: "```sh install").flatMap(\.lines)
        #expect(Set(lines) == Set(Self.installs.keys), "README install lines and this table differ")
        let version = try CLI.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for line in lines where line.contains("sentinel_") || line.contains("sentinel-") || line.contains("sentinel:") {
            #expect(line.contains(version), "\(line) does not name version \(version)")
        }
    }

    /// The blocks of README.md fenced with `fence` (```sh: the examples) with the heading of the
    /// section each is in.
    static func blocks(fence: String = "```sh") throws -> [(section: String, lines: [String])] {
        let readme = try String(contentsOfFile: CLI.packageRoot + "/README.md", encoding: .utf8)
        var blocks: [(String, [String])] = []
        var section = ""
        var current: [String]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if current == nil, line.hasPrefix("## ") { section = String(line.dropFirst(3)) }
            if current == nil, line == fence {
                current = []
            } else if var lines = current {
                if line == "```" {
                    blocks.append((section, lines))
                    current = nil
                } else {
                    lines.append(line)
                    current = lines
                }
            }
        }
        return blocks
    }

    /// A line without its trailing `# comment` (two spaces or more before the `#`).
    static func command(_ line: String) -> String {
        guard let range = line.range(of: #"\s{2,}#"#, options: .regularExpression) else { return line }
        return String(line[..<range.lowerBound])
    }

    @Test func everyExampleRunsAsTheReadmeSays() throws {
        let blocks = try Self.blocks()
        let commands = blocks.flatMap(\.lines).map(Self.command)
        #expect(Set(commands) == Set(Self.expected.keys), "README commands and this table differ")

        let runner = try Runner()
        defer { runner.cleanUp() }
        let service = runner.origin
        try FileManager.default.createDirectory(atPath: service + "/osv-export", withIntermediateDirectories: true)
        try Data(try Runner.osvExport(ecosystem: "PyPI", in: runner.root + "/carried")).write(
            to: URL(fileURLWithPath: service + "/osv-export/PyPI-all.zip"))
        let failing = runner.root + "/heal-project"
        try FileManager.default.copyItem(atPath: HealCLITests.corpus + "/logic-binary-search", toPath: failing)
        try? FileManager.default.removeItem(atPath: failing + "/.fixture.json")
        for command in [
            ["init", "-q", "-b", "main"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "x"],
        ] {
            try Runner.git(command, in: failing)
        }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = URL(fileURLWithPath: CLI.binary).deletingLastPathComponent().path + ":/usr/local/bin:/usr/bin:/bin"
        environment["SENTINEL_HOME"] = runner.state
        environment["SENTINEL_OSV_URL"] = runner.mirror.baseURL
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        try FileManager.default.createDirectory(atPath: runner.state, withIntermediateDirectories: true)

        for (section, lines) in blocks {
            let directory = section == "Healing" ? failing : service
            let background = lines.contains { $0.hasSuffix("&") || Self.command($0).hasSuffix("&") }
            for line in lines where !Self.command(line).hasSuffix("&") {
                // A background line (the fleet worker) starts first, in the same shell, and stops after.
                let prefix = background ? lines.filter { Self.command($0).hasSuffix("&") }.joined(separator: "\n") + "\n" : ""
                let script = background ? prefix + line + "\nstatus=$?\nsleep 2\nkill %1 2>/dev/null; wait\nexit $status" : line
                let result = try CLI.runProgram(
                    "/bin/bash", ["--noprofile", "--norc", "-c", script], environment: environment, directory: directory,
                    timeout: 900)
                let allowed = Self.expected[Self.command(line)] ?? []
                #expect(allowed.contains(result.status), "\(section): \(line) exited \(result.status)\n\(result.stdout)\(result.stderr)")
            }
        }
        #expect(FileManager.default.fileExists(atPath: service + "/.sentinel.yml"))
    }
}
