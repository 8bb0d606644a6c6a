import Foundation
import Support
import Testing

@testable import Autonomy

/// A repository's own policy (`.sentinel/policy.yml`) is hostile input: it may tighten what
/// Sentinel does, never name a file, a host or a credential. Those come from the operator's
/// policy (`--policy FILE`).
@Suite("repository policy allow-list")
struct RepositoryPolicyTests {
    static let forbidden: [(key: String, text: String)] = [
        ("notify.file", "notify:\n  file: audit.jsonl\n"),
        ("notify.file", "notify:\n  file: STOP\n"),
        ("notify.webhook", "notify:\n  webhook: http://127.0.0.1:9/x\n"),
        ("github.tokenEnv", "github:\n  tokenEnv: AWS_SECRET_ACCESS_KEY\n"),
        ("github.api", "github:\n  api: https://attacker.example\n"),
        ("github.repository", "github:\n  repository: attacker/sink\n"),
    ]

    static func repository(with policy: String) throws -> String {
        let root = try ScratchDirectory.make(prefix: "repo-policy")
        try FileManager.default.createDirectory(atPath: root + "/.sentinel", withIntermediateDirectories: true)
        try policy.write(toFile: root + "/" + Policy.defaultPath, atomically: false, encoding: .utf8)
        return root
    }

    @Test("a repository's policy may not name files, hosts or credentials", arguments: forbidden)
    func forbiddenKeys(entry: (key: String, text: String)) throws {
        let root = try Self.repository(with: "version: 1\n" + entry.text)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let error = #expect(throws: SentinelError.self) { try Policy.load(repository: root) }
        #expect(error?.code == .invalidInput)
        #expect(error?.message.contains(entry.key) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains("--policy") == true, "\(error?.message ?? "")")
        // The operator's own policy file may set them.
        _ = try Policy.load(path: root + "/" + Policy.defaultPath)
    }

    @Test("what tightens is still the repository's to set")
    func allowedKeys() throws {
        let text = """
            version: 1
            level: proposer
            protected: ["deploy/**"]
            actor: {minConfidence: 0.9}
            limits: {repository: 2}
            github: {labels: [security], base: main}
            """
        let root = try Self.repository(with: text)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let policy = try Policy.load(repository: root)
        #expect(policy.level == .proposer)
        #expect(policy.github == nil)
    }
}
