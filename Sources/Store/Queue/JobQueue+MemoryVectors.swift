import Support

/// How the fleet database ranks shared heal memory by similarity.
public enum MemoryVectorBackend: Sendable, Hashable, CustomStringConvertible {
    /// pgvector's cosine distance over the stored `real[]` cast to `vector`.
    case pgvector
    /// Cosine similarity computed here over the newest stored vectors; `reason` says why not pgvector.
    case arrayDistance(reason: String)
    /// SQLite: the vectors are JSON text, ranked here.
    case sqlite

    /// One line for a worker's start log or a doctor's output.
    public var description: String {
        switch self {
        case .pgvector: "pgvector: cosine distance in the server"
        case .arrayDistance(let reason): reason
        case .sqlite: "SQLite: vectors as JSON text, cosine similarity over the newest records"
        }
    }
}

extension MemoryEmbedding {
    /// Cosine similarity of `a` and `b`; nil when their dimensions differ or either is zero.
    public static func cosine(_ a: [Float], _ b: [Float]) -> Float? {
        guard a.count == b.count, !a.isEmpty else { return nil }
        var dot: Float = 0
        var normA: Float = 0
        var normB: Float = 0
        for index in a.indices {
            dot += a[index] * b[index]
            normA += a[index] * a[index]
            normB += b[index] * b[index]
        }
        guard normA > 0, normB > 0 else { return nil }
        let value = dot / (normA.squareRoot() * normB.squareRoot())
        return value.isFinite ? value : nil
    }
}

extension JobQueue {
    /// Which backend ranks by similarity here. On PostgreSQL: pgvector when the extension is
    /// installed in this database; when the server offers it but it is not installed, `CREATE
    /// EXTENSION IF NOT EXISTS vector` is tried once (`install`), and a refusal (it needs the
    /// database owner's or a superuser's rights) is said, with array distance used instead.
    public func memoryVectorBackend(install: Bool = true) throws -> MemoryVectorBackend {
        guard storage.isServer else { return .sqlite }
        if try !storage.rows("SELECT 1 AS present FROM pg_extension WHERE extname = 'vector'", []).isEmpty { return .pgvector }
        guard try !storage.rows("SELECT 1 AS present FROM pg_available_extensions WHERE name = 'vector'", []).isEmpty else {
            return .arrayDistance(reason: "pgvector not available on this server (Debian 12 does not package it): using array distance")
        }
        guard install else {
            return .arrayDistance(reason: "pgvector is available but not installed in this database: using array distance")
        }
        do {
            try storage.script("CREATE EXTENSION IF NOT EXISTS vector")
            return .pgvector
        } catch let error as SentinelError {
            let cause = error.message.split(whereSeparator: \.isNewline).first.map(String.init) ?? error.message
            return .arrayDistance(
                reason:
                    "pgvector is available but CREATE EXTENSION vector was refused (\(cause.prefix(200))); "
                    + "a superuser or the database owner can run it: using array distance")
        }
    }

    /// The `k` shared records whose signals are most similar to `query` (cosine similarity at least
    /// `threshold`, same embedder only), most similar first. pgvector ranks in the server; otherwise
    /// the newest `candidates` vectors of that embedder are ranked here.
    public func nearestSharedMemory(
        to query: MemoryEmbedding, k: Int = 5, threshold: Float = 0.35, candidates: Int = 2000,
        backend: MemoryVectorBackend
    ) throws -> [(key: String, record: String, similarity: Float)] {
        guard k > 0, !query.vector.isEmpty, query.vector.count <= MemoryEmbedding.maximumDimension else { return [] }
        // pgvector refuses NaN, infinities, NULL elements and arrays of more dimensions, and a row is
        // hostile: such rows are left out (CASE first: array_position fails on a 2-D array), and
        // should the server refuse anyway, the ranking is done here instead.
        if backend == .pgvector,
            let ranked = try? storage.rows(
                """
                SELECT key, record, 1 - (embedding::vector <=> CAST($2 AS vector)) AS similarity FROM fleet_memory
                WHERE embedder = $1 AND CASE
                    WHEN array_ndims(embedding) = 1 AND cardinality(embedding) = CAST($3 AS INTEGER) THEN
                        array_position(embedding, NULL) IS NULL
                        AND NOT (CAST('NaN' AS REAL) = ANY (embedding) OR CAST('Infinity' AS REAL) = ANY (embedding)
                            OR CAST('-Infinity' AS REAL) = ANY (embedding))
                    ELSE false END
                ORDER BY embedding::vector <=> CAST($2 AS vector) LIMIT CAST($4 AS INTEGER)
                """,
                [query.embedder, Self.vectorText(query.vector, server: false), String(query.vector.count), String(k)])
        {
            return try storage.decode(ranked, table: "fleet_memory") { row throws(RowDecodingError) in
                (key: try row.text("key"), record: try row.text("record"), similarity: Float(try row.double("similarity")))
            }.filter { $0.similarity >= threshold }
        }
        let (rows, _) = try sharedMemoryVectors(embedder: query.embedder, limit: candidates)
        let ranked = rows.compactMap { row -> (key: String, record: String, similarity: Float)? in
            guard let similarity = MemoryEmbedding.cosine(query.vector, row.vector), similarity >= threshold else { return nil }
            return (row.key, row.record, similarity)
        }
        return Array(ranked.sorted { $0.similarity > $1.similarity }.prefix(k))
    }
}
