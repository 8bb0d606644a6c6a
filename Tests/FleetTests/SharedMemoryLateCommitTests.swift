import Digest
import Foundation
import Store
import Support
import Testing
import TestSupport

@testable import Fleet
@testable import Heal
@testable import Signals

/// Issue 58: a worker's pull of shared heal memory never skips a record whose transaction took a
/// lower id and committed after a higher one had been pulled (the SERIAL gap), on a real
/// PostgreSQL with two connections; and what a worker shares carries its signal's embedding.
@Suite(
    "Shared heal memory: late commits", .integration,
    .needsPostgres)
struct SharedMemoryLateCommitTests {
    @Test("a record committed late is taken in by the next pull, once; shared records carry their signal's vector")
    func lateCommitIsTakenIn() throws {
        let server = try #require(PostgresServer.shared, "the PostgreSQL test server did not start")
        let url = try DatabaseURL(parsing: server.createDatabase())
        let queue = try JobQueue(url: url)
        let keyDirectory = try ScratchDirectory.make(prefix: "memory-key")
        let key = try MemoryKey.loadOrCreate(in: StateDirectory(path: keyDirectory))
        let keyFile = keyDirectory + "/memory.key"
        let learner = try SharedMemoryAuthenticationTests.worker([MemoryKey.environmentVariable: keyFile])
        let reader = try SharedMemoryAuthenticationTests.worker([MemoryKey.environmentVariable: keyFile])
        let sync = MemorySync(environment: reader.environment)

        // Another worker's push, still in its transaction, holds the lower id.
        let late = SharedAttempt(
            fingerprint: "late-signal", kind: "finding", signalMessage: "yaml.load", exceptionType: nil, topFrame: nil,
            ruleId: "python.yaml-load", package: nil, actor: "rule-fix", strategy: "fix-template", description: "late",
            patchHash: "h", patch: "p", verdict: .failed, lesson: "still unsafe", created: "2026-11-27T00:00:00Z", changeKey: nil,
            repository: SharedMemoryAuthenticationTests.repository
        ).signed(with: key)
        let text = try late.encoded()
        let slow = try PostgresConnection(url: url)
        try slow.execute("BEGIN")
        try slow.execute(
            "INSERT INTO fleet_memory (key, record) VALUES ('\(SHA256.hex(text))', '\(text.replacingOccurrences(of: "'", with: "''"))')")

        // This worker's record takes the higher id and commits; the reader pulls it.
        let fix = "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -3 +3 @@\n-yaml.load(x)\n+yaml.safe_load(x)\n"
        try HealMemory(state: StateDirectory(path: learner.home)).record(
            SharedMemoryAuthenticationTests.attempt(fix), for: SharedMemoryAuthenticationTests.signal,
            repository: SharedMemoryAuthenticationTests.repository)
        #expect(try MemorySync(environment: learner.environment).push(queue) == 1)
        #expect(try sync.pull(queue) == SharedImport(added: 1, dropped: 0))

        try slow.execute("COMMIT")
        #expect(try sync.pull(queue) == SharedImport(added: 1, dropped: 0))
        #expect(try sync.pull(queue) == SharedImport(added: 0, dropped: 0))
        let memory = try HealMemory(state: StateDirectory(path: reader.home))
        #expect(Set(try memory.list().map(\.description)) == ["late", "use yaml.safe_load"])

        // The pushed row carries the local embedding of its signal, by name.
        let vectors = try queue.sharedMemoryVectors(embedder: LocalSignalEmbedding().name)
        #expect(vectors.unreadable == 0 && vectors.rows.count == 1 && vectors.rows[0].vector.count == LocalSignalEmbedding.dimension)
    }

    @Test("the worker's start log says how the fleet database ranks memory: array distance, and why not pgvector")
    func startLogNamesTheVectorBackend() throws {
        let server = try #require(PostgresServer.shared, "the PostgreSQL test server did not start")
        let url = try DatabaseURL(parsing: server.createDatabase())
        let lines = LogLines()
        let worker = FleetWorker(
            url: url, options: WorkerOptions(executable: "/bin/false", name: "vectors", audit: try .scratch()),
            log: JSONLog(redactor: Redactor(), sink: { lines.append($0) }))
        worker.logMemoryVectors()
        let line = try #require(lines.all.first { $0.contains("\"memory.vectors\"") })
        #expect(line.contains("pgvector not available on this server (Debian 12 does not package it): using array distance"), "\(line)")
        #expect(line.contains("local-hash-v1-256"))
    }
}
