extension JobQueue {
    /// Adds heal-memory records (key, JSON) to the fleet's shared memory, each once by its key;
    /// returns how many were new.
    @discardableResult
    public func shareMemory(_ records: [(key: String, record: String)]) throws -> Int {
        try storage.transaction {
            var added = 0
            // In key order: two workers sharing overlapping records lock rows in the same order.
            for record in records.sorted(by: { $0.key < $1.key }) {
                let inserted = try storage.rows(
                    "INSERT INTO fleet_memory (key, record) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING RETURNING id",
                    [record.key, record.record])
                added += inserted.count
            }
            return added
        }
    }

    /// Shared heal-memory records after `id` (a cursor), oldest first, at most `limit`.
    public func sharedMemory(after id: Int64, limit: Int = 500) throws -> [(id: Int64, record: String)] {
        try storage.decode(
            storage.rows("SELECT id, record FROM fleet_memory WHERE id > $1 ORDER BY id LIMIT $2", [String(id), String(limit)]),
            table: "fleet_memory"
        ) { row throws(RowDecodingError) in (id: try row.int64("id"), record: try row.text("record")) }
    }
}
