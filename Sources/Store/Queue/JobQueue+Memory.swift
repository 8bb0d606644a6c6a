import Foundation
import Support

/// Where a reader of the fleet's shared heal memory stands: the last row it took as final, in the
/// order `(txn, id)` (migration 3). The start is before every row.
public struct SharedMemoryCursor: Sendable, Hashable, Comparable {
    /// The writing transaction's id (0 on SQLite and for rows older than migration 3).
    public var transaction: Int64
    /// The row's id.
    public var id: Int64

    /// A cursor at `(transaction, id)`.
    public init(transaction: Int64, id: Int64) {
        self.transaction = transaction
        self.id = id
    }

    /// Before every row.
    public static let start = SharedMemoryCursor(transaction: 0, id: 0)

    /// `(transaction, id)` order, the order rows are read in.
    public static func < (lhs: SharedMemoryCursor, rhs: SharedMemoryCursor) -> Bool {
        (lhs.transaction, lhs.id) < (rhs.transaction, rhs.id)
    }
}

/// One shared heal-memory row as a reader receives it.
public struct SharedMemoryRow: Sendable, Hashable {
    /// Its place in the read order.
    public var cursor: SharedMemoryCursor
    /// Its key (the SHA-256 of `record`, as the writer gave it).
    public var key: String
    /// The record (JSON, hostile until its MAC verifies).
    public var record: String
    /// True when no row can ever appear before it in the read order: its transaction ended before
    /// the oldest one still running began (always on SQLite). A reader moves its cursor over final
    /// rows only, so a row committed late is read on a later pull, never skipped.
    public var final: Bool

    /// The row's id.
    public var id: Int64 { cursor.id }
}

/// A signal's embedding, with what made it: vectors of different embedders are never compared.
public struct MemoryEmbedding: Sendable, Hashable {
    /// The largest dimension stored or read (a row holding more is unreadable).
    public static let maximumDimension = 4096

    /// The embedder's name (`local-hash-v1-256`, `api:MODEL`).
    public var embedder: String
    /// The vector.
    public var vector: [Float]

    /// `vector` as `embedder` made it.
    public init(embedder: String, vector: [Float]) {
        self.embedder = embedder
        self.vector = vector
    }
}

extension JobQueue {
    /// Adds heal-memory records (key, JSON) to the fleet's shared memory, each once by its key;
    /// returns how many were new.
    @discardableResult
    public func shareMemory(_ records: [(key: String, record: String)]) throws -> Int {
        try shareMemory(records.map { (key: $0.key, record: $0.record, embedding: nil) })
    }

    /// Adds heal-memory records (key, JSON, and the embedding of the record's signal when there is
    /// one) to the fleet's shared memory, each once by its key; returns how many were new.
    @discardableResult
    public func shareMemory(_ records: [(key: String, record: String, embedding: MemoryEmbedding?)]) throws -> Int {
        try storage.transaction {
            var added = 0
            // In key order: two workers sharing overlapping records lock rows in the same order.
            for record in records.sorted(by: { $0.key < $1.key }) {
                let vector = record.embedding.map { Self.vectorText($0.vector, server: storage.isServer) }
                let cast = storage.isServer ? "::real[]" : ""
                let inserted = try storage.rows(
                    """
                    INSERT INTO fleet_memory (key, record, embedder, embedding) VALUES ($1, $2, $3, $4\(cast))
                    ON CONFLICT (key) DO NOTHING RETURNING id
                    """,
                    [record.key, record.record, record.embedding?.embedder, vector])
                added += inserted.count
            }
            return added
        }
    }

    /// Shared heal-memory rows after `cursor` in `(txn, id)` order, at most `limit`, each saying
    /// whether it is final (``SharedMemoryRow/final``): a reader advances its cursor over the final
    /// rows that lead the answer only, and takes the others again (by key) until they are.
    public func sharedMemory(after cursor: SharedMemoryCursor = .start, limit: Int = 500) throws -> [SharedMemoryRow] {
        // The snapshot's xmin: every transaction below it has ended, so no row with a lower txn
        // can still appear. The statement's own snapshot, the same that decides what it sees.
        let horizon = storage.isServer ? "txid_snapshot_xmin(txid_current_snapshot())" : "NULL"
        return try storage.decode(
            storage.rows(
                """
                SELECT id, txn, key, record, \(horizon) AS horizon FROM fleet_memory
                WHERE (txn, id) > (CAST($1 AS BIGINT), CAST($2 AS BIGINT)) ORDER BY txn, id LIMIT $3
                """,
                [String(cursor.transaction), String(cursor.id), String(limit)]),
            table: "fleet_memory"
        ) { row throws(RowDecodingError) in
            let transaction = try row.int64("txn")
            let horizon = try row.optionalText("horizon") == nil ? nil : try row.int64("horizon")
            return SharedMemoryRow(
                cursor: SharedMemoryCursor(transaction: transaction, id: try row.int64("id")), key: try row.text("key"),
                record: try row.text("record"), final: horizon.map { transaction < $0 } ?? true)
        }
    }

    /// The newest `limit` shared records whose signal `embedder` embedded, with their vectors: the
    /// bounded candidate set array distance ranks. A row whose vector is unreadable (not numbers,
    /// too long) is counted in `unreadable`, not returned.
    public func sharedMemoryVectors(embedder: String, limit: Int = 2000) throws -> (
        rows: [(id: Int64, key: String, record: String, vector: [Float])], unreadable: Int
    ) {
        // A vector longer than any embedder makes is not even fetched (rows are hostile).
        let bounded =
            storage.isServer
            ? "cardinality(embedding) <= \(MemoryEmbedding.maximumDimension)"
            : "length(embedding) <= \(MemoryEmbedding.maximumDimension * 32)"
        let rows = try storage.rows(
            """
            SELECT id, key, record, embedding FROM fleet_memory WHERE embedder = $1 AND embedding IS NOT NULL AND \(bounded)
            ORDER BY id DESC LIMIT $2
            """,
            [embedder, String(limit)])
        var unreadable = 0
        let read = try storage.decode(rows, table: "fleet_memory") { row throws(RowDecodingError) in
            (id: try row.int64("id"), key: try row.text("key"), record: try row.text("record"), vector: try row.text("embedding"))
        }
        var result: [(id: Int64, key: String, record: String, vector: [Float])] = []
        for row in read {
            guard let vector = Self.vector(row.vector) else {
                unreadable += 1
                continue
            }
            result.append((row.id, row.key, row.record, vector))
        }
        return (result, unreadable)
    }

    /// `{0.1,0.2}` (PostgreSQL's array text) or `[0.1,0.2]` (SQLite's JSON).
    static func vectorText(_ vector: [Float], server: Bool) -> String {
        let items = vector.map { $0.isFinite ? String($0) : "0" }.joined(separator: ",")
        return server ? "{\(items)}" : "[\(items)]"
    }

    /// The vector in `text` (either form), or nil when it is not one: hostile rows are bounded.
    static func vector(_ text: String) -> [Float]? {
        guard text.utf8.count <= MemoryEmbedding.maximumDimension * 32, let first = text.first, let last = text.last,
            (first == "{" && last == "}") || (first == "[" && last == "]")
        else { return nil }
        let body = text.dropFirst().dropLast()
        if body.isEmpty { return nil }
        var vector: [Float] = []
        for item in body.split(separator: ",", omittingEmptySubsequences: false) {
            guard vector.count < MemoryEmbedding.maximumDimension,
                let value = Float(item.trimmingCharacters(in: .whitespaces)), value.isFinite
            else { return nil }
            vector.append(value)
        }
        return vector
    }
}
