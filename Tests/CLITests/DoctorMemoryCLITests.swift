import Foundation
import Testing
import TestSupport

/// Issue 58: `sentinel doctor` says what heal memory compares signals with.
@Suite(.enabled(if: TestHost.canSandbox, "doctor starts a sandbox: needs root and user namespaces"))
struct DoctorMemoryCLITests {
    @Test("doctor names the local embedding, or the configured /v1/embeddings model, or the bad setting")
    func doctorNamesTheEmbedder() throws {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SENTINEL_EMBEDDINGS_MODEL", "SENTINEL_EMBEDDINGS_URL", "SENTINEL_LLM_URL", "SENTINEL_LLM_MODEL"] {
            environment[name] = nil
        }
        let local = try CLI.run(["doctor"], environment: environment, timeout: 600)
        #expect(
            local.stdout.contains(
                "ok    heal memory     local-hash-v1-256: local embedding, 256 dimensions (SENTINEL_EMBEDDINGS_MODEL unset)\n"),
            "\(local.stdout)")
        environment["SENTINEL_EMBEDDINGS_MODEL"] = "nomic-embed-text"
        environment["SENTINEL_EMBEDDINGS_URL"] = "http://127.0.0.1:11434/v1"
        let provider = try CLI.run(["doctor"], environment: environment, timeout: 600)
        #expect(provider.stdout.contains("ok    heal memory     api:nomic-embed-text at http://127.0.0.1:11434/v1/embeddings\n"))
        environment["SENTINEL_EMBEDDINGS_URL"] = nil
        let missing = try CLI.run(["doctor"], environment: environment, timeout: 600)
        #expect(
            missing.stdout.contains(
                "warn  heal memory     SENTINEL_EMBEDDINGS_MODEL is set but no SENTINEL_EMBEDDINGS_URL or SENTINEL_LLM_URL\n"))
    }
}
