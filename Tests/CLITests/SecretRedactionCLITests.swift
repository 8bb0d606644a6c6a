import Foundation
import TestSupport
import Testing

/// Issue 26, "secrets leak into proposals": a heal signal is attacker-controlled text, and a
/// signal that quotes a credential of the environment (a CI log echoing `GITHUB_TOKEN`, a
/// report message) must not carry it into anything that leaves the process: `--out`, the
/// proposal (`PR.md` is the pull request body), the notification file, the webhook POST, the
/// audit log, stdout and stderr.
@Suite(
    "secrets never leave the process", .serialized,
    .enabled(if: TestHost.canSandbox && PythonHost.hasPytest, "heals in the sandbox: needs root, user namespaces and python3-pytest"))
struct SecretRedactionCLITests {
    /// The operator's GitHub token, as CI sets it.
    static let githubToken = "ghp_" + "R3dactorTestValue0123456789abcdefABCDEF"
    /// A credential only the policy names (`github.tokenEnv`), in a variable no name pattern knows.
    static let policyToken = "pat-" + "OnlyThePolicyNamesThis-0123456789"

    @Test("tokens of the environment and the policy quoted by a signal: in no written file, webhook body or output stream")
    func tokenInSignal() throws {
        let scratch = try HealCLITests.Scratch(fixture: "sast-yaml-load")
        var environment = scratch.environment
        environment["GITHUB_TOKEN"] = Self.githubToken
        environment["DEPLOY_BOT"] = Self.policyToken
        let report = scratch.root + "/report.sarif"
        let scan = try CLI.run(
            ["scan", scratch.repo, "--format", "sarif", "--output", report, "--allow-missing-db"],
            environment: scratch.environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        let sarif = try String(contentsOfFile: report, encoding: .utf8)
        let hostile = sarif.replacingOccurrences(
            of: "; use yaml.safe_load\"",
            with: "; use yaml.safe_load (CI: GITHUB_TOKEN=\(Self.githubToken) deploy=\(Self.policyToken))\"")
        try #require(hostile != sarif, "the report's message was not found")
        try hostile.write(toFile: report, atomically: false, encoding: .utf8)

        let server = try LoopbackHTTPServer { _ in LoopbackHTTPServer.Response(status: 204) }
        defer { server.stop() }
        let policy = scratch.root + "/policy.yml"
        try """
        notify:
          file: notes.jsonl
          webhook: \(server.baseURL)/hook
        github:
          repository: acme/shop
          tokenEnv: DEPLOY_BOT
        """.write(toFile: policy, atomically: false, encoding: .utf8)

        let heal = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--level", "proposer",
                "--policy", policy, "--out", scratch.out,
            ], environment: environment, timeout: 600)
        #expect(heal.status == 0, "\(heal.stdout)\(heal.stderr)")
        let json = try CLI.run(
            [
                "heal", "--signal", report, "--repo", scratch.repo, "--verify", "python3 -m pytest -q", "--level", "observer",
                "--policy", policy, "--format", "json",
            ], environment: environment, timeout: 600)
        #expect(json.status == 0, "\(json.stderr)")

        var written: [String: String] = [
            "heal stdout": heal.stdout, "heal stderr": heal.stderr, "heal --format json stdout": json.stdout,
            "heal --format json stderr": json.stderr,
        ]
        for directory in [scratch.out, scratch.home] {
            let enumerator = FileManager.default.enumerator(atPath: directory)
            while let name = enumerator?.nextObject() as? String {
                let path = directory + "/" + name
                guard let data = FileManager.default.contents(atPath: path) else { continue }
                written[path] = String(decoding: data, as: UTF8.self)
            }
        }
        let bodies = server.requests.map(\.bodyText)
        #expect(bodies.count == 2, "one webhook POST per heal")
        for (index, body) in bodies.enumerated() { written["webhook POST \(index + 1)"] = body }
        let proposals = written.keys.filter { $0.hasSuffix("/PR.md") || $0.hasSuffix("/proposal.json") }
        #expect(proposals.count == 2, "\(written.keys.sorted())")
        #expect(written.keys.contains { $0.hasSuffix("/notes.jsonl") })
        #expect(written.keys.contains(scratch.out + "/evidence.json"))
        // The text around the secret survives: only the value is replaced.
        #expect(
            written.contains {
                $0.key.hasSuffix("/PR.md") && ($0.value.contains("CI: GITHUB_TOKEN=") || $0.value.contains(#"CI\: GITHUB\_TOKEN="#))
            })
        for (place, text) in written.sorted(by: { $0.key < $1.key }) {
            #expect(!text.contains(Self.githubToken), "GITHUB_TOKEN's value in \(place)")
            #expect(!text.contains(Self.policyToken), "github.tokenEnv's value in \(place)")
        }
        let verify = try CLI.run(["audit", "verify"], environment: environment)
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
    }
}
