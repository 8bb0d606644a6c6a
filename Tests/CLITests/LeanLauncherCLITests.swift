import ArgumentParser
import CLICore
import Foundation
import SentinelCLI
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `sentinel` runs `sandbox run` itself with its own small parser (`SandboxRunArguments`) and
/// hands everything else to `sentinel-cli`: the two parsers must never disagree, and the fast
/// path must behave as the full one did.
@Suite struct LeanLauncherCLITests {
    /// Argument lists after `sandbox run`: common forms first (the lean parser must take them),
    /// then every shape the lean parser must either read exactly as ArgumentParser or leave to it.
    static let common: [[String]] = [
        ["--", "/bin/true"],
        ["--profile", "minimal", "--", "/bin/sh", "-c", "echo hi"],
        ["--profile=scan-bandit", "--workspace", "/tmp", "--ro", "--", "ls", "-la"],
        ["--workspace=/tmp", "--rw", "--memory", "256M", "--pids", "64", "--cpus", "0.5", "--timeout", "30s", "--", "make"],
        ["--overlay", "--workspace", "/tmp", "--workspace-size", "16M", "--", "true"],
        ["--bind-ro", "/usr/share", "--bind-ro=/opt", "--allow", "pypi.org:443", "--allow", "example.com", "--", "pip"],
        ["--require-limits", "--status-json", "/tmp/status.json", "-i", "--", "cat"],
        ["-it", "--", "sh"], ["-ti", "--", "sh"], ["-t", "--interactive", "--", "sh"], ["--tty", "--", "sh"],
        ["--timeout", "1.5m", "--memory=1G", "--", "sh", "--", "-x"],
    ]
    static let unusual: [[String]] = [
        [], ["/bin/true"], ["--"], ["--help"], ["-h"], ["--", "--help"], ["--profile"], ["--profile", "--", "x"],
        ["--profile=", "--", "x"], ["--profile", "a", "--profile", "b", "--", "x"], ["--ro", "--rw", "--", "x"],
        ["--ro", "--ro", "--", "x"], ["-i", "-i", "--", "x"], ["-it", "-t", "--", "x"], ["-x", "--", "x"],
        ["--bogus", "--", "x"], ["--memory", "lots", "--", "x"], ["--memory", "-1", "--", "x"], ["--pids", "0", "--", "x"],
        ["--pids", "-3", "--", "x"], ["--pids", "1.5", "--", "x"], ["--cpus", "0", "--", "x"], ["--cpus", "nan", "--", "x"],
        ["--timeout", "0s", "--", "x"], ["--timeout", "soon", "--", "x"], ["--workspace-size", "512K", "--", "x"],
        ["--workspace", "/nonexistent-\(getpid())", "--", "x"], ["--interactive=yes", "--", "x"], ["-it=1", "--", "x"],
        ["--status-json", "-", "--", "x"], ["--allow", "--", "x"], ["--profile", "minimal", "extra", "--", "x"],
        ["--pids", "+5", "--", "x"], ["--cpus", "1e0", "--", "x"], ["--memory", "64m", "--", "x"], ["--timeout", "5", "--", "x"],
        ["-ii", "--", "x"], ["-tt", "--", "x"], ["--tty", "-t", "--", "x"], ["---", "--", "x"], ["-", "--", "x"],
    ]

    /// Whenever the lean parser answers, ArgumentParser (`SandboxRunCommand`, validation
    /// included) answers the same options; where the lean parser is unsure it answers nothing.
    @Test(arguments: common + unusual)
    func theLeanParserReadsWhatArgumentParserReads(arguments: [String]) {
        let lean = SandboxRunArguments.parse(arguments)
        let full = try? SandboxRunCommand.parse(arguments)
        if let lean {
            #expect(full?.options == lean, "\(arguments): lean \(lean), ArgumentParser \(String(describing: full?.options))")
        }
        if Self.common.contains(arguments) {
            #expect(lean != nil, "\(arguments): the common form left to sentinel-cli")
        }
    }

    /// A CPU limit that is no number, or too large for a CFS quota, is a usage error, not a
    /// crash halfway through making the cgroups (found by the test above: `--cpus nan`).
    @Test(arguments: ["nan", "inf", "1e300", "1025", "0"])
    func aCPULimitOutOfRangeIsAUsageError(cpus: String) throws {
        let result = try CLI.run(["sandbox", "run", "--cpus", cpus, "--", "/bin/true"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("Error: --cpus must be above 0 and at most 1024\n"), "\(result.stderr)")
    }

    /// The lean parser knows exactly the options `sandbox run --help` lists.
    @Test func theLeanParserKnowsEveryOptionTheHelpLists() {
        let help = SandboxRunCommand.helpMessage(columns: 400)
        var listed = Set<String>()
        for line in help.split(separator: "\n") {
            for word in line.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "/" }) where word.hasPrefix("-") {
                let name = String(word)
                let letters = name.drop { $0 == "-" }
                guard let first = letters.first, first.isLetter, letters.allSatisfy({ $0.isLetter || $0 == "-" }),
                    name != "-h", name != "--help"
                else { continue }
                listed.insert(name)
            }
        }
        #expect(listed == SandboxRunArguments.names, "help lists \(listed.sorted())")
        // The names are the ones the parser's switches take, and nothing else is taken.
        #expect(SandboxRunArguments.names.allSatisfy(SandboxRunArguments.takes))
        #expect(!SandboxRunArguments.takes("--version") && !SandboxRunArguments.takes("--help") && !SandboxRunArguments.takes("-it"))
    }

    /// With `SENTINEL_LAUNCH_TRACE=1` a launch prints each phase once, in order, with its wall and
    /// CPU time; without it, nothing.
    @Test func theLaunchTraceNamesEveryPhase() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_LAUNCH_TRACE"] = "1"
        let traced = try CLI.run(["sandbox", "run", "--", "/bin/true"], environment: environment)
        #expect(traced.status == 0, "\(traced.stderr)")
        let phases = traced.stderr.split(separator: "\n").map { line -> String in
            let words = line.split(separator: " ")
            #expect(words.count == 5 && words[0] == "sentinel:" && words[1] == "launch-trace:", "\(line)")
            #expect(words.count == 5 && words[3].hasPrefix("wall=") && Double(words[3].dropFirst(5)) != nil, "\(line)")
            #expect(words.count == 5 && words[4].hasPrefix("cpu=") && Double(words[4].dropFirst(4)) != nil, "\(line)")
            return words.count > 2 ? String(words[2]) : ""
        }
        #expect(
            phases == [
                "start", "arguments", "profile", "options", "host-id", "root-directory", "plan", "workspace", "seccomp", "prepare",
                "network",
                "clone",
                "cgroup", "host-id-check", "root-and-exec", "payload", "cleanup", "total",
            ])
        environment["SENTINEL_LAUNCH_TRACE"] = nil
        let quiet = try CLI.run(["sandbox", "run", "--", "/bin/true"], environment: environment)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
    }

    /// A damaged or tampered cached seccomp program is not loaded: the launch compiles the
    /// policy again, enforces it, and stores a good program in place of the bad one.
    @Test(.enabled(if: geteuid() == 0, "the root launcher's cache is /run/sentinel"))
    func aDamagedSeccompCacheIsReplacedNotUsed() throws {
        let directory = "/run/sentinel"
        // This build's programs (the cache keeps other builds' too): their names start with its build ID.
        let notes = try CLI.runProgram("/usr/bin/readelf", ["-n", CLI.binary]).stdout
        let buildID = try #require(
            notes.split(separator: "\n").first { $0.contains("Build ID:") }?.split(separator: " ").last.map(String.init))
        // The cache keeps the newest 8 programs, and tests running beside this one store theirs:
        // a launch warms it again if this build's was evicted before it was listed.
        var cached: [String] = []
        for _ in 0..<3 where cached.isEmpty {
            let warm = try CLI.run(["sandbox", "run", "--", "/bin/true"])
            #expect(warm.status == 0, "\(warm.stderr)")
            cached = try FileManager.default.contentsOfDirectory(atPath: directory)
                .filter { $0.hasPrefix("seccomp-" + buildID.prefix(40)) && $0.hasSuffix(".bpf") }
        }
        try #require(!cached.isEmpty, "no cached program of build \(buildID) after a launch")
        for name in cached {
            // An allow-everything program (RET ALLOW) with a stale header stands in for tampering.
            var bytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            for index in stride(from: bytes.count - 8, to: bytes.count - 800, by: -8) {
                bytes.replaceSubrange(index..<index + 8, with: [6, 0, 0, 0, 0, 0, 0xFF, 0x7F])
            }
            try Data(bytes).write(to: URL(fileURLWithPath: directory + "/" + name))
        }
        let run = try CLI.run(["sandbox", "run", "--", "/bin/sh", "-c", "grep ^Seccomp: /proc/self/status; unshare -U true"])
        #expect(run.stdout == "Seccomp:\t2\n", "\(run.stdout)\(run.stderr)")
        #expect(run.status != 0, "unshare ran under the tampered program")
        for name in cached where FileManager.default.fileExists(atPath: directory + "/" + name) {
            let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: directory + "/" + name)))
            #expect(!bytes.suffix(16).elementsEqual([6, 0, 0, 0, 0, 0, 0xFF, 0x7F, 6, 0, 0, 0, 0, 0, 0xFF, 0x7F]), "\(name) not replaced")
        }
    }

    /// A YAML profile the run cache lacks is read by `sentinel-cli` (the lean launcher reads no
    /// YAML and hands the command over), which caches its document; the next launch reads that.
    @Test(.enabled(if: geteuid() == 0, "the root launcher's cache is /run/sentinel"))
    func aNewYAMLProfileRunsThroughTheFullCommandLineThenFromTheCache() throws {
        let directory = NSTemporaryDirectory() + "lean-profile-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let marker = UUID().uuidString
        let path = directory + "/custom.yaml"
        try Data("# \(marker)\nname: custom\nenv:\n  set:\n    MARK: \(marker)\n".utf8).write(to: URL(fileURLWithPath: path))
        func cached() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: "/run/sentinel").filter { name in
                name.hasPrefix("profile-")
                    && ((try? Data(contentsOf: URL(fileURLWithPath: "/run/sentinel/" + name))).map {
                        String(decoding: $0, as: UTF8.self).contains(marker)
                    } ?? false)
            }
        }
        #expect(try cached().isEmpty)
        let command = ["sandbox", "run", "--profile", path, "--", "/bin/sh", "-c", "echo $MARK"]
        let first = try CLI.run(command)
        #expect(first.status == 0 && first.stdout == marker + "\n", "\(first.stderr)")
        #expect(try cached().count == 1)
        let second = try CLI.run(command)
        #expect(second.status == 0 && second.stdout == marker + "\n", "\(second.stderr)")
        // A broken profile still gets the YAML reader's own error, naming its line.
        try Data("name: custom\nlimits: [\n".utf8).write(to: URL(fileURLWithPath: path))
        let broken = try CLI.run(command)
        #expect(broken.status == 2 && broken.stderr.contains("\(path):"), "\(broken.stderr)")
    }

    /// The lean launcher links no part of Foundation that brings ICU, and no Yams (which needs
    /// that part): an `import Foundation` anywhere on its path, instead of FoundationEssentials,
    /// links Foundation's NS* layer and ICU's 34 MB of data, a fifth of a launch.
    @Test func theLeanLauncherLinksNeitherFoundationsNSLayerNorICU() throws {
        let result = try CLI.runProgram("/usr/bin/readelf", ["-d", CLI.binary])
        let needed = result.stdout.split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("[libc.so.6]") }, "\(result.stdout)\(result.stderr)")
        for library in ["libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"] {
            #expect(!needed.contains { $0.contains("[\(library)]") }, "\(CLI.binary) needs \(library)")
        }
    }
}
