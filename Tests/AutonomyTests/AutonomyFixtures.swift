import Autonomy
import Digest
import Foundation
import Git
@testable import Heal
@testable import Signals
import Store
import Support
import Testing

/// A throwaway git repository with one commit, and a state directory beside it.
final class TestRepository {
    let root: String
    let path: String
    let state: StateDirectory
    /// The fake GitHub API the operator allows (`SENTINEL_GITHUB_API`), when a test uses one.
    var githubAPI: String?

    init(files: [String: String] = TestRepository.files) throws {
        root = try ScratchDirectory.make(prefix: "autonomy")
        path = root + "/repo"
        state = StateDirectory(path: root + "/state")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        for (name, content) in files { try write(name, content) }
        try git(["init", "-q", "-b", "main"])
        try git(["add", "-A"])
        try git(["commit", "-qm", "initial"])
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    static let files = [
        "app.py": "import yaml\n\n\ndef load(text):\n    return yaml.load(text)\n",
        "requirements.txt": "pyyaml==5.3\nrequests==2.31.0\n",
        "src/auth/login.py": "def login(user, password):\n    return user == 'admin'\n",
        ".github/workflows/ci.yml": "on: push\n",
    ]

    func write(_ name: String, _ content: String) throws {
        let file = path + "/" + name
        try FileManager.default.createDirectory(
            atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try content.write(toFile: file, atomically: false, encoding: .utf8)
    }

    func read(_ name: String) throws -> String { try String(contentsOfFile: path + "/" + name, encoding: .utf8) }

    @discardableResult
    func git(_ arguments: [String]) throws -> String {
        let output = try GitRunner.run(arguments, in: path, writable: true)
        guard output.status == 0 else { throw SentinelError(.git, "git \(arguments): \(output.stderr)") }
        return String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every entry under the repository, `.git` included: path → type, mode, size and content hash.
    func snapshot() throws -> [String: String] {
        var entries: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: path)
        while let name = enumerator?.nextObject() as? String {
            let full = path + "/" + name
            var info = stat()
            guard lstat(full, &info) == 0 else { continue }
            var entry = "\(info.st_mode) \(info.st_size) \(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)"
            if info.st_mode & S_IFMT == S_IFREG, let data = FileManager.default.contents(atPath: full) {
                entry += " " + SHA256.hex(Array(data))
            }
            entries[name] = entry
        }
        return entries
    }

    func policy(_ text: String) throws -> Policy { try Policy.parse(text, file: root + "/policy.yml") }

    var audit: String { state.file("audit.jsonl") }

    func auditEvents() throws -> [String] {
        guard let data = FileManager.default.contents(atPath: audit) else { return [] }
        return data.split(separator: 0x0A).compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any])?["event"] as? String
        }
    }
}

/// Candidates as heal would hand them over.
enum Candidates {
    static func signal(rule: String = "python.yaml-load") -> Signal {
        Signal(
            kind: .finding, source: "report.sarif", message: "yaml.load without a safe loader",
            locations: [Signal.Location(file: "app.py", line: 5)], ruleId: rule)
    }

    /// The rule fix of app.py: one line replaced.
    static func ruleFix(confidence: Double = 0.95) throws -> Candidate {
        try make(
            signal: signal(), actor: .ruleFix,
            changes: [
                FileChange(
                    path: "app.py", before: TestRepository.files["app.py"],
                    after: "import yaml\n\n\ndef load(text):\n    return yaml.safe_load(text)\n")
            ], confidence: confidence, coverage: ChangeCoverage(covered: 1, total: 1, uncovered: []))
    }

    /// The bump of pyyaml 5.3 → 5.4 in requirements.txt.
    static func bump(confidence: Double = 0.95) throws -> Candidate {
        var signal = Signal(
            kind: .vulnerableDependency, source: "audit.json", message: "pyyaml 5.3 is vulnerable",
            locations: [Signal.Location(file: "requirements.txt")])
        signal.dependency = Signal.Dependency(
            ecosystem: "PyPI", package: "pyyaml", installed: "5.3", fixedVersions: ["5.4"], manifest: "requirements.txt",
            advisories: ["GHSA-8q59-q68h-6hv4"])
        var candidate = try make(
            signal: signal, actor: .dependencyBump,
            changes: [
                FileChange(
                    path: "requirements.txt", before: TestRepository.files["requirements.txt"],
                    after: "pyyaml==5.4\nrequests==2.31.0\n")
            ], confidence: confidence, coverage: nil)
        candidate.targetVersion = "5.4"
        return candidate
    }

    /// A change of `path` (replacing its content).
    static func edit(_ path: String, actor: ActorKind = .ruleFix, confidence: Double = 0.95) throws -> Candidate {
        try make(
            signal: signal(), actor: actor,
            changes: [FileChange(path: path, before: TestRepository.files[path], after: "changed = True\n")],
            confidence: confidence, coverage: nil)
    }

    static func make(
        signal: Signal, actor: ActorKind, changes: [FileChange], confidence: Double, coverage: ChangeCoverage?
    ) throws -> Candidate {
        let patch = try GitPatch.diff(changes)
        let lines = GitPatch.changedLines(patch).count
        let run = Verification(
            command: "python3 -m pytest -q", exitCode: 0, reason: .exited, commandMilliseconds: 900,
            totalMilliseconds: 1000, cpuMilliseconds: 800, peakMemoryBytes: nil, tests: nil, outputTail: "")
        var candidate = Candidate(
            signal: signal, actor: actor, description: "the fix", strategy: "template", patch: patch, changes: changes,
            confidence: CandidateConfidence(value: confidence, inputs: ["actor": confidence]), verifications: [run, run],
            rescan: nil, notes: [], changedLines: lines)
        candidate.coverage = coverage
        return candidate
    }
}

/// A crash at a failpoint: not a `SentinelError`, so nothing catches it on the way out.
struct SimulatedCrash: Error {}
