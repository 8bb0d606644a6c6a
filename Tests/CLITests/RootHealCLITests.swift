#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Store
import Synchronization
import TestSupport
import Testing

/// "Root only launches" (issue 53) for `heal` and `proposals approve`: started as root, the
/// heal (signal, repository, policy, memory, autonomy, every git run) and the approval run as
/// an unprivileged analysis; root lends the state directory and writes `--out`.
@Suite("heal and proposals as root: the repository is read and git runs under non-root uids")
struct RootHealCLITests {
    /// The repository's owner in these tests: an id no account uses.
    static let owner: uid_t = 4243

    /// Every process of interest seen in /proc while it runs: each `git` process and each
    /// `sentinel` process, with its real uid, that is or descends from a process whose command
    /// line holds `marker` (this test's own, among the suite's concurrent tests).
    final class ProcessSampler: @unchecked Sendable {
        struct Seen: Hashable {
            var pid: Int32
            var uid: UInt32
            var command: String
        }
        private let seen = Mutex<Set<Seen>>([])
        private let running = Atomic(true)
        private let finished = Atomic(false)
        private let marker: String

        init(marker: String) {
            self.marker = marker
            Thread.detachNewThread { [self] in
                while running.load(ordering: .relaxed) {
                    sample()
                    usleep(5_000)
                }
                finished.store(true, ordering: .relaxed)
            }
        }

        /// What has been seen so far.
        func snapshot() -> Set<Seen> { seen.withLock { $0 } }

        func stop() -> Set<Seen> {
            running.store(false, ordering: .relaxed)
            while !finished.load(ordering: .relaxed) { usleep(5_000) }
            return seen.withLock { $0 }
        }

        private static func arguments(_ pid: Int32) -> [String]? {
            guard let cmdline = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline"), !cmdline.isEmpty else { return nil }
            return cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        }

        private static func field(_ pid: Int32, _ name: String) -> UInt32? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
                let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") })
            else { return nil }
            return line.split(separator: "\t").dropFirst().first.flatMap { UInt32($0) }
        }

        /// Whether `pid` or one of its ancestors has `marker` on its command line.
        private func descends(_ pid: Int32) -> Bool {
            var current = pid
            for _ in 0..<64 {
                if let arguments = Self.arguments(current), arguments.contains(where: { $0.contains(marker) }) { return true }
                guard let parent = Self.field(current, "PPid"), parent > 1 else { return false }
                current = Int32(parent)
            }
            return false
        }

        private func sample() {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return }
            for entry in entries {
                guard let pid = Int32(entry), pid != getpid(), let arguments = Self.arguments(pid) else { continue }
                let program = (arguments.first ?? "").split(separator: "/").last.map(String.init) ?? ""
                guard program == "git" || program.hasPrefix("sentinel"), descends(pid),
                    let uid = Self.field(pid, "Uid")
                else { continue }
                let command = program == "git" ? "git" : "sentinel " + arguments.dropFirst().prefix(2).joined(separator: " ")
                seen.withLock { _ = $0.insert(Seen(pid: pid, uid: uid, command: command)) }
            }
        }
    }

    /// The heal fixture as a git repository owned by `owner`.
    static func ownedScratch(fixture: String = "sast-yaml-load") throws -> HealCLITests.Scratch {
        let scratch = try HealCLITests.Scratch(fixture: fixture)
        let chown = try CLI.runProgram("/bin/chown", ["-R", "\(owner):\(owner)", scratch.repo])
        #expect(chown.status == 0, "\(chown.stderr)")
        return scratch
    }

    @Test(
        "heal and approve as root: the analysis and every git process run as non-root uids, git's writes are the owner's",
        .enabled(if: geteuid() == 0))
    func healAndApproveRunUnprivileged() throws {
        let scratch = try Self.ownedScratch()
        let report = scratch.root + "/report.sarif"
        let scan = try CLI.run(
            ["scan", scratch.repo, "--format", "sarif", "--output", report, "--allow-missing-db"], environment: scratch.environment)
        #expect(scan.status == 1, "\(scan.stderr)")

        let sampler = ProcessSampler(marker: scratch.repo)
        let heal = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "sleep 1; python3 -m pytest -q", "--level",
                "proposer", "--out", scratch.out,
            ], environment: scratch.environment, timeout: 600)
        let healSeen = sampler.stop()
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        #expect(!heal.stderr.contains("as root"), "\(heal.stderr)")
        #expect(FileManager.default.fileExists(atPath: scratch.out + "/evidence.json"))
        let analyses = healSeen.filter { $0.command.hasPrefix("sentinel heal") && $0.uid != 0 }
        #expect(!analyses.isEmpty, "no unprivileged heal process was seen: \(healSeen)")
        let gits = healSeen.filter { $0.command == "git" }
        #expect(gits.allSatisfy { $0.uid != 0 }, "git ran as root: \(gits)")

        let id = try #require(
            heal.stdout.split(separator: "\n").first { $0.contains("proposal ") && $0.contains("(pending)") }?
                .split(separator: " ").dropFirst().first.map(String.init), "\(heal.stdout)")
        let approvals = ProcessSampler(marker: id)
        let approve = try CLI.run(["proposals", "approve", id], environment: scratch.environment, timeout: 300)
        let approveSeen = approvals.stop()
        #expect(approve.status == 0, "\(approve.stdout)\(approve.stderr)")
        #expect(approveSeen.filter { $0.command == "git" }.allSatisfy { $0.uid != 0 }, "git ran as root: \(approveSeen)")
        // What git wrote in the repository is the owner's: it was written as the owner.
        let branches = try CLI.runProgram(
            "/usr/bin/git", ["-c", "safe.directory=*", "-C", scratch.repo, "for-each-ref", "--format=%(refname)", "refs/heads/sentinel"])
        let branch = try #require(branches.stdout.split(separator: "\n").first.map(String.init), "\(branches)")
        var info = stat()
        #expect(stat(scratch.repo + "/.git/" + branch, &info) == 0)
        #expect(info.st_uid == Self.owner, "the branch was written by uid \(info.st_uid)")
    }

    @Test("heal as root reads the repository as its owner: a file only root may read is not read", .enabled(if: geteuid() == 0))
    func healReadsAsTheOwner() throws {
        let scratch = try Self.ownedScratch()
        let report = scratch.root + "/report.sarif"
        _ = try CLI.run(
            ["scan", scratch.repo, "--format", "sarif", "--output", report, "--allow-missing-db"], environment: scratch.environment)
        let rooted = scratch.repo + "/rooted.txt"
        try "only root reads this\n".write(toFile: rooted, atomically: false, encoding: .utf8)
        chmod(rooted, 0o600)
        let heal = try CLI.run(
            ["heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--out", scratch.out],
            environment: scratch.environment, timeout: 600)
        #expect(heal.status == 2, "\(heal.stdout)\(heal.stderr)")
        #expect(heal.stderr.contains("rooted.txt"), "\(heal.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.out + "/evidence.json"))
    }

    @Test(
        "fleet worker as root: the worker, its scan and heal jobs and every git run under non-root uids; root holds no queue",
        .enabled(if: geteuid() == 0 && PythonHost.hasPytest))
    func fleetJobsRunUnprivileged() throws {
        let scratch = try Self.ownedScratch(fixture: "logic-binary-search")
        let signal = try scratch.pytestSignal()
        // Apart from the repository root: the worker's analysis lends the database's directory writable.
        let database = "sqlite:" + NSTemporaryDirectory() + "fleet-" + UUID().uuidString + "/fleet.sqlite"
        var environment = try CLI.fleetEnvironment(database: database)
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        var ids: [Int64] = []
        for submit in [
            ["fleet", "submit", "scan", scratch.repo, "--since", "HEAD"],
            ["fleet", "submit", "heal", "--signal", signal, "--repo", scratch.repo, "--verify", "sleep 1; python3 -m pytest -q"],
        ] {
            let submitted = try CLI.run(submit, environment: environment)
            ids.append(try #require(Int64(submitted.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(submitted.stderr)"))
        }
        let sampler = ProcessSampler(marker: scratch.root)
        let worker = try FleetProcess(["worker", "--repository-root", scratch.root], environment: environment)
        let queue = try JobQueue(url: DatabaseURL(parsing: database))
        #expect(
            try eventually(timeout: 900) {
                try ids.allSatisfy { [.succeeded, .failed, .dead].contains(try queue.job($0)?.state) }
            })
        // Root only launches: the worker that holds the queue is the analysis, and root keeps
        // no descriptor of the queue's database.
        let rootFiles = sampler.snapshot().filter { $0.command == "sentinel fleet worker" && $0.uid == 0 }.flatMap { process in
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.pid)/fd")) ?? []).compactMap {
                try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(process.pid)/fd/\($0)")
            }
        }
        #expect(!rootFiles.isEmpty && !rootFiles.contains { $0.contains("fleet.sqlite") }, "root holds the queue: \(rootFiles)")
        worker.signal(SIGTERM)
        #expect(worker.wait(timeout: 300) == 0)
        let seen = sampler.stop()
        for id in ids { #expect(try queue.job(id)?.state == .succeeded, "job \(id): \(worker.events)") }
        #expect(seen.contains { $0.command == "sentinel fleet worker" && $0.uid != 0 }, "no unprivileged worker: \(seen)")
        let jobs = seen.filter { $0.command.hasPrefix("sentinel scan") || $0.command.hasPrefix("sentinel heal") }
        #expect(jobs.contains { $0.command.hasPrefix("sentinel heal") } && jobs.allSatisfy { $0.uid != 0 }, "a job ran as root: \(jobs)")
        let gits = seen.filter { $0.command == "git" }
        #expect(gits.allSatisfy { $0.uid != 0 }, "git ran as root: \(gits)")
    }

    /// `make demo` heals a fixture inside Sentinel's own checkout with its state below the same
    /// work tree: the analysis is shown the directory alone (the work tree would hold the lent
    /// state), instead of root healing as before.
    /// Issue 54, finding 5: `heal --repo /etc` fell back to healing as root, copied /etc
    /// (shadow included) into its snapshot and ran the verify command over it.
    @Test("a place the analysis cannot show (/etc) is refused as root, never read by root", .enabled(if: geteuid() == 0))
    func aSystemDirectoryIsRefused() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        let signal = scratch.root + "/signal.txt"
        try "FAILED test_x.py::test_a - AssertionError\n".write(toFile: signal, atomically: false, encoding: .utf8)
        let heal = try CLI.run(
            ["heal", "--signal", signal, "--repo", "/etc", "--verify", "cat shadow; exit 1", "--out", scratch.out],
            environment: scratch.environment, timeout: 600)
        #expect(heal.status == 2, "\(heal.stdout)\(heal.stderr)")
        #expect(heal.stderr.contains("/etc: is a system directory") && heal.stderr.contains("cannot show this place"), "\(heal.stderr)")
        #expect(!heal.stderr.contains("as root:") && !(heal.stdout + heal.stderr).contains("root:"), "\(heal.stdout)\(heal.stderr)")
        #expect(!FileManager.default.fileExists(atPath: scratch.out + "/evidence.json"))
        let scan = try CLI.run(["scan", "/etc", "--allow-missing-db"], environment: scratch.environment)
        #expect(scan.status == 2 && scan.stderr.contains("cannot show this place"), "\(scan.stdout)\(scan.stderr)")
        #expect(!scan.stdout.contains("secrets."), "\(scan.stdout)")
    }

    /// Issue 54, finding 21: a heal as root killed with -9 left its snapshot of the repository
    /// (secrets included) in `$TMPDIR` for good; it is now beside the state directory, where
    /// `sentinel doctor` (and the next launch) sweeps it once abandoned.
    @Test("a root heal killed with -9 leaves its snapshot beside the state, not in $TMPDIR; doctor sweeps it", .enabled(if: geteuid() == 0))
    func killedHealLeavesNoSnapshotInTMPDIR() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        try "API_TOKEN=killed-heal-secret\n".write(toFile: scratch.repo + "/.env", atomically: false, encoding: .utf8)
        let signal = scratch.root + "/signal.txt"
        try "FAILED test_x.py::test_a - AssertionError\n".write(toFile: signal, atomically: false, encoding: .utf8)
        let tmp = scratch.root + "/tmpdir"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: false)
        var environment = scratch.environment
        environment["TMPDIR"] = tmp
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CLI.binary)
        process.arguments = ["heal", "--signal", signal, "--repo", scratch.repo, "--verify", "sleep 600", "--max-minutes", "5"]
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let beside = scratch.home + ".scratch"
        func snapshots() -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: beside)
            var found: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if path.hasSuffix("base/.env") { found.append(beside + "/" + path) }
            }
            return found
        }
        var waited = 0
        while snapshots().isEmpty, waited < 1200, process.isRunning {
            usleep(100_000)
            waited += 1
        }
        #expect(!snapshots().isEmpty, "no snapshot beside the state directory")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        usleep(500_000)
        // Only the broker's socket directory may stay there (swept by the next launch): no copy
        // of the repository.
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
        #expect(left.allSatisfy { $0.hasPrefix("sentinel-broker") }, "left in $TMPDIR: \(left)")
        let grep = try CLI.runProgram("/bin/grep", ["-rl", "killed-heal-secret", tmp])
        #expect(grep.stdout.isEmpty, "\(grep.stdout)")
        // Abandoned an hour ago: doctor sweeps it.
        let old = Date().addingTimeInterval(-7200)
        for entry in try FileManager.default.contentsOfDirectory(atPath: beside) {
            try FileManager.default.setAttributes([.modificationDate: old], ofItemAtPath: beside + "/" + entry)
        }
        let doctor = try CLI.run(["doctor"], environment: environment, timeout: 600)
        #expect(doctor.stdout.contains("abandoned scratch director"), "\(doctor.stdout)")
        #expect(snapshots().isEmpty)
    }

    @Test("heal as root of a directory in a work tree that also holds the state: the analysis, not root", .enabled(if: geteuid() == 0))
    func stateInsideTheWorkTree() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        let report = scratch.root + "/report.sarif"
        _ = try CLI.run(
            ["scan", scratch.repo, "--format", "sarif", "--output", report, "--allow-missing-db"], environment: scratch.environment)
        // The repository becomes a directory of an outer work tree that also holds the state.
        let outer = scratch.root + "/outer"
        try FileManager.default.createDirectory(atPath: outer, withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: scratch.repo, toPath: outer + "/project")
        try FileManager.default.removeItem(atPath: outer + "/project/.git")
        let git = try CLI.runProgram("/usr/bin/git", ["-C", outer, "init", "-q"])
        #expect(git.status == 0, "\(git.stderr)")
        var environment = scratch.environment
        environment["SENTINEL_HOME"] = outer + "/state"
        let heal = try CLI.run(
            ["heal", "--signal", report, "--repo", outer + "/project", "--verify", "python3 -m pytest -q", "--out", scratch.out],
            environment: environment, timeout: 600)
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        #expect(!heal.stderr.contains("as root"), "\(heal.stderr)")
    }
}
