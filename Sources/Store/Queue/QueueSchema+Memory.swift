extension QueueSchema {
    /// Migration 3: shared heal memory pulled without skips, and kept with its signals' embeddings.
    ///
    /// `txn` is the writing transaction's id (`txid_current()`, epoch-extended, so it never wraps):
    /// a reader that takes only rows whose `txn` is below its snapshot's xmin as final, and moves
    /// its cursor `(txn, id)` through those alone, never passes a row whose transaction commits
    /// after a higher id was read (the SERIAL gap of outbox readers). Rows written before this
    /// migration keep 0: they committed long ago. SQLite serialises writers, so its ids are in
    /// commit order and `txn` stays 0 there.
    ///
    /// `embedder` names what produced `embedding` (the signal's vector): vectors of different
    /// embedders are never compared. PostgreSQL keeps it as `real[]`, which pgvector casts to
    /// `vector` where the server has the extension (no schema depends on it); SQLite as JSON text.
    static let sharedMemoryCursor = QueueMigration(
        version: 4, name: "004_shared_memory_cursor_and_vectors",
        postgres: """
            ALTER TABLE fleet_memory ADD COLUMN txn BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE fleet_memory ALTER COLUMN txn SET DEFAULT txid_current();
            ALTER TABLE fleet_memory ADD COLUMN embedder TEXT;
            ALTER TABLE fleet_memory ADD COLUMN embedding REAL[];
            CREATE INDEX fleet_memory_pull ON fleet_memory (txn, id);
            CREATE INDEX fleet_memory_embedder ON fleet_memory (embedder, id)
            """,
        sqlite: """
            ALTER TABLE fleet_memory ADD COLUMN txn BIGINT NOT NULL DEFAULT 0;
            ALTER TABLE fleet_memory ADD COLUMN embedder TEXT;
            ALTER TABLE fleet_memory ADD COLUMN embedding TEXT;
            CREATE INDEX fleet_memory_pull ON fleet_memory (txn, id);
            CREATE INDEX fleet_memory_embedder ON fleet_memory (embedder, id)
            """)
}
