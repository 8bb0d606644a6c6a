import Foundation
import Support
import Testing
import TestSupport

@testable import Store

/// Issue 58: the shared heal memory's pull cursor never skips a row whose transaction commits after
/// a higher id was read (the SERIAL gap of outbox readers), and the fleet database ranks shared
/// records by their signals' embeddings (array distance without pgvector; JSON text on SQLite).
@Suite("Shared heal memory: pull cursor and vectors (SQLite and PostgreSQL)")
struct SharedMemoryPullTests {
    /// What `MemorySync.pull` does with the rows, without heal memory: the cursor moves over the
    /// final rows leading the order only; rows read before they were final are remembered by key.
    struct Reader {
        var cursor = SharedMemoryCursor.start
        var ahead = Set<String>()
        var taken: [String] = []

        mutating func pull(_ queue: JobQueue, pageSize: Int = 500) throws -> [String] {
            var new: [String] = []
            var scan = cursor
            var leading = true
            while true {
                let batch = try queue.sharedMemory(after: scan, limit: pageSize)
                guard let last = batch.last else { break }
                for row in batch {
                    leading = leading && row.final
                    if leading {
                        cursor = row.cursor
                        if ahead.remove(row.key) == nil { new.append(row.key) }
                    } else if ahead.insert(row.key).inserted {
                        new.append(row.key)
                    }
                }
                scan = last.cursor
            }
            taken += new
            return new
        }
    }

    @Test(
        "a record whose transaction got the lower id and commits after a higher one was pulled is in the next pull",
        .needsPostgres, arguments: [1, 500])
    func lateCommitIsPulled(pageSize: Int) throws {
        let url = try QueueBackend.postgres.freshURL()
        let queue = try JobQueue(url: url)
        try queue.shareMemory([(key: "first", record: "{}")])
        var reader = Reader()
        #expect(try reader.pull(queue, pageSize: pageSize) == ["first"])

        // A second connection takes the next id and holds its transaction open.
        let slow = try RawConnection(url)
        try slow.execute("BEGIN")
        try slow.execute("INSERT INTO fleet_memory (key, record) VALUES ('late', '{}')")
        // Another worker's record takes a higher id and commits at once; it is pulled.
        try queue.shareMemory([(key: "early", record: "{}")])
        #expect(try reader.pull(queue, pageSize: pageSize) == ["early"])
        let ids = try slow.rows("SELECT key, id FROM fleet_memory ORDER BY id").map { $0.compactMap { $0 } }
        #expect(ids.map(\.first) == ["first", "late", "early"])
        // The lower id commits now: an id cursor (id > 3) would never see it again.
        try slow.execute("COMMIT")
        #expect(try reader.pull(queue, pageSize: pageSize) == ["late"])
        // Each once: nothing more, however often one pulls, and the cursor has passed all three.
        #expect(
            try Self.eventually {
                try reader.pull(queue, pageSize: pageSize).isEmpty && reader.ahead.isEmpty
                    && queue.sharedMemory(after: reader.cursor).isEmpty
            })
        #expect(reader.taken.sorted() == ["early", "first", "late"])
    }

    @Test(
        "a transaction that rolls back leaves no gap the cursor waits on",
        .needsPostgres)
    func rollbackDoesNotStall() throws {
        let url = try QueueBackend.postgres.freshURL()
        let queue = try JobQueue(url: url)
        let slow = try RawConnection(url)
        try slow.execute("BEGIN")
        try slow.execute("INSERT INTO fleet_memory (key, record) VALUES ('never', '{}')")
        try queue.shareMemory([(key: "kept", record: "{}")])
        var reader = Reader()
        #expect(try reader.pull(queue) == ["kept"])
        #expect(try queue.sharedMemory().allSatisfy { !$0.final })
        try slow.execute("ROLLBACK")
        #expect(try Self.eventually { try queue.sharedMemory().map(\.final) == [true] })
        #expect(try reader.pull(queue).isEmpty)
        #expect(reader.cursor.id == 2 && reader.ahead.isEmpty && reader.taken == ["kept"])
    }

    @Test("on SQLite every committed row is final and read in id order", arguments: [QueueBackend.sqlite])
    func sqliteRowsAreFinal(_ backend: QueueBackend) throws {
        let queue = try JobQueue(url: try backend.freshURL())
        try queue.shareMemory([(key: "b", record: "{}"), (key: "a", record: "{}")])
        let rows = try queue.sharedMemory()
        #expect(rows.map(\.key) == ["a", "b"] && rows.allSatisfy(\.final) && rows.map(\.cursor.transaction) == [0, 0])
        #expect(try queue.sharedMemory(after: rows[0].cursor).map(\.key) == ["b"])
    }

    /// Waits (at most 60 s) until `condition` holds: the test server is shared, and a transaction
    /// another test holds open in another database keeps the cluster-wide xmin, so rows become
    /// final a moment after their own transactions end.
    static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
        for _ in 0..<1200 {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    static func unit(_ values: [Float]) -> [Float] {
        let norm = values.reduce(0) { $0 + $1 * $1 }.squareRoot()
        return values.map { $0 / norm }
    }

    @Test(
        "shared records are ranked by their signals' vectors, one embedder's only, above the threshold", arguments: QueueBackend.available)
    func nearestByArrayDistance(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url)
        let backendInUse = try queue.memoryVectorBackend()
        switch backend {
        case .sqlite: #expect(backendInUse == .sqlite)
        case .postgres:
            // Debian 12 packages no pgvector: the test server says so, and array distance is used.
            #expect(
                backendInUse
                    == .arrayDistance(reason: "pgvector not available on this server (Debian 12 does not package it): using array distance")
            )
        }
        try queue.shareMemory([
            (key: "near", record: "N", embedding: MemoryEmbedding(embedder: "e1", vector: Self.unit([1, 0.2, 0]))),
            (key: "far", record: "F", embedding: MemoryEmbedding(embedder: "e1", vector: Self.unit([0, 0, 1]))),
            (key: "nearer", record: "R", embedding: MemoryEmbedding(embedder: "e1", vector: Self.unit([1, 0.05, 0]))),
            // The same numbers from another embedder are never compared.
            (key: "other", record: "O", embedding: MemoryEmbedding(embedder: "e2", vector: Self.unit([1, 0, 0]))),
            (key: "none", record: "-", embedding: nil),
        ])
        let query = MemoryEmbedding(embedder: "e1", vector: [1, 0, 0])
        let found = try queue.nearestSharedMemory(to: query, k: 5, threshold: 0.5, backend: backendInUse)
        #expect(found.map(\.key) == ["nearer", "near"])
        #expect(found.allSatisfy { $0.similarity > 0.9 && $0.similarity <= 1.0001 })
        #expect(try queue.nearestSharedMemory(to: query, k: 1, threshold: 0.5, backend: backendInUse).map(\.record) == ["R"])
        // A vector of another dimension is not comparable: nothing, not a crash.
        #expect(try queue.nearestSharedMemory(to: MemoryEmbedding(embedder: "e1", vector: [1, 0]), backend: backendInUse).isEmpty)

        // A row someone wrote straight into the table with a vector that is no vector is skipped, counted.
        let raw = try RawConnection(url)
        let garbage = backend == .postgres ? "'{1,NaN,0}'" : "'[1,\"x\",0]'"
        try raw.execute("INSERT INTO fleet_memory (key, record, embedder, embedding) VALUES ('bad', 'B', 'e1', \(garbage))")
        let read = try queue.sharedMemoryVectors(embedder: "e1")
        #expect(read.unreadable == 1 && read.rows.count == 3)
        #expect(try queue.nearestSharedMemory(to: query, k: 5, threshold: 0.5, backend: backendInUse).map(\.key) == ["nearer", "near"])
        // Told pgvector where the server refuses it (here: no such type), the ranking is done here.
        #expect(try queue.nearestSharedMemory(to: query, k: 5, threshold: 0.5, backend: .pgvector).map(\.key) == ["nearer", "near"])
    }

    /// The pgvector path on a server that has the extension: PostgreSQL 16 with pgvector from the
    /// `pgserver` wheel (`make pip-deps`), since Debian 12 packages none. `candidates: 1` tells the
    /// paths apart: array distance ranks only the newest stored vector, pgvector every row.
    @Test(
        "with pgvector the server ranks every row, one embedder's, above the threshold; hostile rows are left out, not fatal",
        .integration, .needsPostgres)
    func nearestByPgvector() throws {
        let programs = try #require(
            PostgresServer.pgvectorBinaries, "no pgserver in .venv: make pip-deps installs it (PostgreSQL 16 with pgvector)")
        let server = try PostgresServer(programs: programs)
        defer { server.stop() }
        let url = try DatabaseURL(parsing: server.createDatabase())
        let queue = try JobQueue(url: url)
        #expect(
            try queue.memoryVectorBackend(install: false)
                == .arrayDistance(reason: "pgvector is available but not installed in this database: using array distance"))
        // The test role owns the cluster, so CREATE EXTENSION is allowed.
        #expect(try queue.memoryVectorBackend() == .pgvector)
        #expect(try queue.memoryVectorBackend(install: false) == .pgvector)
        let vectors: [(key: String, vector: [Float])] = [
            ("nearer", Self.unit([1, 0.05, 0])), ("near", Self.unit([1, 0.2, 0])), ("far", Self.unit([0, 0, 1])),
        ]
        try queue.shareMemory(
            vectors.map { (key: $0.key, record: $0.key.uppercased(), embedding: MemoryEmbedding(embedder: "e1", vector: $0.vector)) }
                + [(key: "other", record: "O", embedding: MemoryEmbedding(embedder: "e2", vector: [1, 0, 0]))])
        let query = MemoryEmbedding(embedder: "e1", vector: [1, 0, 0])
        let arrayDistance = MemoryVectorBackend.arrayDistance(reason: "the test's")
        func ranked(_ backend: MemoryVectorBackend, k: Int = 5) throws -> [String] {
            try queue.nearestSharedMemory(to: query, k: k, threshold: 0.5, candidates: 1, backend: backend).map(\.key)
        }
        #expect(try ranked(.pgvector) == ["nearer", "near"])
        #expect(try ranked(.pgvector, k: 1) == ["nearer"])
        #expect(try ranked(arrayDistance) != ["nearer", "near"], "array distance over the newest row alone ranks the same")
        // The server's similarity is the cosine computed here.
        for found in try queue.nearestSharedMemory(to: query, threshold: 0.5, backend: .pgvector) {
            let stored = try #require(vectors.first { $0.key == found.key })
            #expect(abs(found.similarity - (MemoryEmbedding.cosine(query.vector, stored.vector) ?? -2)) < 1e-5)
        }
        // Rows someone wrote straight into the table that pgvector would refuse to cast.
        let raw = try RawConnection(url)
        for (key, embedding) in [
            ("nan", "'{1,NaN,0}'"), ("infinite", "'{Infinity,0,0}'"), ("null", "'{1,NULL,0}'"),
            ("two-d", "'{{1,0,0},{1,0,0}}'"), ("short", "'{1,0}'"), ("empty", "'{}'"),
        ] {
            try raw.execute("INSERT INTO fleet_memory (key, record, embedder, embedding) VALUES ('\(key)', 'X', 'e1', \(embedding))")
        }
        #expect(try ranked(.pgvector) == ["nearer", "near"])
        #expect(try ranked(arrayDistance).isEmpty, "the newest row is a hostile one")
    }

    @Test("a vector text is read back as written, and hostile ones are refused")
    func vectorText() throws {
        #expect(JobQueue.vector("{1,-0.5,2.5e-3}") == [1, -0.5, 0.0025])
        #expect(JobQueue.vector("[0.25, 1]") == [0.25, 1])
        for bad in ["", "{}", "1,2", "{1,2]", "{1,x}", "{1,inf}", "{" + String(repeating: "1,", count: 5000) + "1}"] {
            #expect(JobQueue.vector(bad) == nil, "\(bad.prefix(20))")
        }
        #expect(JobQueue.vector(JobQueue.vectorText([0.1, 0.2], server: true)) == [0.1, 0.2])
        #expect(MemoryEmbedding.cosine([1, 0], [1, 0, 0]) == nil && MemoryEmbedding.cosine([0, 0], [1, 0]) == nil)
    }
}
