import Signals
import Store
import Support

extension HealMemory {
    /// At most this many past signals (the newest) are compared with the one being healed.
    public static let similarityCandidates = 256
    /// The most similar past signals whose records are recalled.
    public static let similarNeighbours = 5
    /// The least cosine similarity that counts: below it a signal is unrelated. The local
    /// embedding gives unrelated signals about 0 and the same exception in nearby code 0.5 and more.
    public static let similarityThreshold: Float = 0.35

    /// What a heal starts with: ``similar(to:repository:limit:)`` (this very signal, the same
    /// exception and frame, rule or package) and then the records of the ``similarNeighbours``
    /// past signals of `repository` most similar to `signal` (at least ``similarityThreshold``),
    /// each marked with its similarity, within `limit` records. `notes` says when the configured
    /// embedder failed and the local embedding was used instead. Recalled records are hints: a
    /// remembered fix is replayed only within ``ReplayScope`` and verified like any candidate.
    public func recall(_ signal: Signal, repository: String, limit: Int = 20) -> (records: [MemoryRecord], notes: [String]) {
        var records = (try? similar(to: signal, repository: repository, limit: limit)) ?? []
        var notes: [String] = []
        let neighbours: [(fingerprint: String, similarity: Float)]
        do {
            neighbours = try similarSignals(to: signal, repository: repository, using: embedder)
        } catch {
            let local = LocalSignalEmbedding()
            notes.append("memory: embeddings from \(embedder.name) failed (\(error)); using \(local.name)")
            neighbours = (try? similarSignals(to: signal, repository: repository, using: local)) ?? []
        }
        var seen = Set(records.map(\.id))
        for neighbour in neighbours where records.count < limit {
            let found = (try? attempts(fingerprint: neighbour.fingerprint, repository: repository, limit: 4)) ?? []
            for var record in found where records.count < limit && seen.insert(record.id).inserted {
                record.similarity = neighbour.similarity
                records.append(record)
            }
        }
        return (records, notes)
    }

    /// The past signals of `repository` (not `signal` itself) most similar to it by `embedder`:
    /// at most `k`, each at least `threshold`, most similar first. Vectors missing for `embedder`
    /// are made and kept; a stored vector that is unreadable is made again.
    public func similarSignals(
        to signal: Signal, repository: String, using embedder: any SignalEmbedder, k: Int = HealMemory.similarNeighbours,
        threshold: Float = HealMemory.similarityThreshold
    ) throws -> [(fingerprint: String, similarity: Float)] {
        let candidates = try signalTexts(repository: repository, excluding: signal.fingerprint)
        guard !candidates.isEmpty, k > 0 else { return [] }
        var vectors = try storedVectors(repository: repository, embedder: embedder.name, of: candidates.map(\.fingerprint))
        let missing = candidates.filter { vectors[$0.fingerprint] == nil }
        // The network (a provider) is asked outside the memory's lock.
        let made = try embedder.embed(missing.map(\.text) + [SignalText(signal: signal, redactor: redactor)])
        guard made.count == missing.count + 1, let query = made.last else {
            throw SentinelError(.invalidInput, "\(embedder.name): \(made.count) vectors for \(missing.count + 1) signals")
        }
        for (candidate, vector) in zip(missing, made) { vectors[candidate.fingerprint] = vector }
        try storeVectors(zip(missing, made).map { ($0.fingerprint, $1) }, repository: repository, embedder: embedder.name)
        let ranked = candidates.compactMap { candidate -> (fingerprint: String, similarity: Float)? in
            guard let vector = vectors[candidate.fingerprint], let similarity = MemoryEmbedding.cosine(query, vector),
                similarity >= threshold
            else { return nil }
            return (candidate.fingerprint, similarity)
        }
        return Array(ranked.sorted { ($0.similarity, $0.fingerprint) > ($1.similarity, $1.fingerprint) }.prefix(k))
    }

    /// The newest ``similarityCandidates`` signals of `repository` but `fingerprint`, each with
    /// the fields its newest record keeps.
    private func signalTexts(repository: String, excluding fingerprint: String) throws -> [(fingerprint: String, text: SignalText)] {
        try withDatabase { database in
            let query = try database.prepare(
                """
                SELECT fingerprint, kind, signal_message, exception_type, top_frame, rule_id, package FROM heal_attempts
                WHERE id IN (SELECT MAX(id) FROM heal_attempts WHERE repository = ?1 AND fingerprint != ?2
                    GROUP BY fingerprint ORDER BY MAX(id) DESC LIMIT ?3)
                """)
            query.bind(1, repository)
            query.bind(2, fingerprint)
            query.bind(3, Self.similarityCandidates)
            var texts: [(String, SignalText)] = []
            while try query.step() {
                texts.append(
                    (
                        query.text(0) ?? "",
                        SignalText(
                            kind: query.text(1) ?? "", message: query.text(2) ?? "", exceptionType: query.text(3),
                            topFrame: query.text(4), ruleId: query.text(5), package: query.text(6))
                    ))
            }
            return texts
        }
    }

    private func storedVectors(repository: String, embedder: String, of fingerprints: [String]) throws -> [String: [Float]] {
        try withDatabase { database in
            let query = try database.prepare(
                "SELECT vector FROM heal_signal_vectors WHERE repository = ?1 AND fingerprint = ?2 AND embedder = ?3")
            var vectors: [String: [Float]] = [:]
            for fingerprint in fingerprints {
                query.reset()
                query.bind(1, repository)
                query.bind(2, fingerprint)
                query.bind(3, embedder)
                if try query.step(), let vector = Self.vector(query.blob(0)) { vectors[fingerprint] = vector }
            }
            return vectors
        }
    }

    private func storeVectors(_ vectors: [(fingerprint: String, vector: [Float])], repository: String, embedder: String) throws {
        guard !vectors.isEmpty else { return }
        try withDatabase { database in
            try database.transaction {
                let insert = try database.prepare(
                    "INSERT OR REPLACE INTO heal_signal_vectors(repository, fingerprint, embedder, vector) VALUES (?1, ?2, ?3, ?4)")
                for (fingerprint, vector) in vectors {
                    insert.reset()
                    insert.bind(1, repository)
                    insert.bind(2, fingerprint)
                    insert.bind(3, embedder)
                    insert.bind(4, blob: Self.bytes(vector))
                    try insert.run()
                }
            }
        }
    }

    /// The records of `fingerprint` in `repository`: verified first, newest first.
    private func attempts(fingerprint: String, repository: String, limit: Int) throws -> [MemoryRecord] {
        try withDatabase { database in
            let query = try database.prepare(
                """
                SELECT \(Self.columns) FROM heal_attempts WHERE repository = ?1 AND fingerprint = ?2
                ORDER BY verdict = 'verified' DESC, lesson IS NOT NULL DESC, id DESC LIMIT ?3
                """)
            query.bind(1, repository)
            query.bind(2, fingerprint)
            query.bind(3, limit)
            var records: [MemoryRecord] = []
            while try query.step() { records.append(Self.row(query)) }
            return records
        }
    }

    /// Float32 little-endian.
    static func bytes(_ vector: [Float]) -> [UInt8] {
        vector.flatMap { value -> [UInt8] in
            let bits = value.bitPattern.littleEndian
            return [UInt8(bits & 0xff), UInt8((bits >> 8) & 0xff), UInt8((bits >> 16) & 0xff), UInt8(bits >> 24)]
        }
    }

    /// The vector in `bytes`, or nil when they are not one (a damaged or foreign row).
    static func vector(_ bytes: [UInt8]) -> [Float]? {
        guard !bytes.isEmpty, bytes.count % 4 == 0, bytes.count <= MemoryEmbedding.maximumDimension * 4 else { return nil }
        var vector: [Float] = []
        vector.reserveCapacity(bytes.count / 4)
        for offset in stride(from: 0, to: bytes.count, by: 4) {
            let bits =
                UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
            let value = Float(bitPattern: bits)
            guard value.isFinite else { return nil }
            vector.append(value)
        }
        return vector
    }
}
