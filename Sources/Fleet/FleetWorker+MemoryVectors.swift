import Heal
import Store

extension FleetWorker {
    /// Says at start how the fleet database ranks shared heal memory by similarity (pgvector, or
    /// array distance and why not pgvector, or SQLite) and which embedding the heals use. A
    /// database that cannot be reached now is said too; the worker's loop reconnects as ever.
    func logMemoryVectors() {
        let embedder = LocalSignalEmbedding().name
        do {
            let backend = try JobQueue(url: url).memoryVectorBackend()
            log.info(
                "memory.vectors",
                [
                    LogField("worker", .string(options.name)), LogField("backend", .string(backend.description)),
                    LogField("embedder", .string(embedder)),
                ])
        } catch {
            log.warning(
                "memory.vectors", [LogField("worker", .string(options.name)), LogField("error", .string("\(error)"))])
        }
    }
}
