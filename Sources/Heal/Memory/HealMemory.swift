#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Signals
import Store
import Support
import Synchronization

extension SentinelError.Code {
    /// Another `heal` holds the lock on the same signal (exit 1: no candidate from this run).
    public static let healBusy = SentinelError.Code("heal-busy", exitStatus: 1)
}

/// Heal's memory in the state database (`heal.sqlite` in the state directory): every attempt with its
/// provenance and lesson, keyed by signal fingerprint, and the per-signal locks. Similar signals
/// (same exception type and innermost frame, same rule, same package) of the same repository
/// (``RepositoryIdentity``) retrieve past verified fixes and lessons first; what was learnt on
/// another repository is never offered (issue 53, R8). Only verified outcomes count in favour of a strategy: an attempt
/// that failed, was refused or was forgotten never raises anything's rank.
public final class HealMemory: Sendable {
    /// The database file.
    public let path: String
    /// What the prose of a record (the signal's message, the description, the lesson) goes
    /// through; the patch is kept as it is, for reuse (a patch holding a secret is never proposed).
    public let redactor: Redactor
    /// The connection, one caller at a time.
    private let database: Mutex<Database>
    /// What turns signals into vectors for retrieval by similarity (``recall(_:repository:limit:)``).
    public let embedder: any SignalEmbedder

    /// The tables, versioned; a file from a newer Sentinel is refused, never rewritten.
    static let schema = Schema(
        store: "heal", title: "heal memory",
        migrations: [
            Migration(
                version: 1,
                sql: """
                    CREATE TABLE IF NOT EXISTS heal_attempts(
                        id INTEGER PRIMARY KEY,
                        fingerprint TEXT NOT NULL,
                        kind TEXT NOT NULL,
                        signal_message TEXT NOT NULL,
                        exception_type TEXT,
                        top_frame TEXT,
                        rule_id TEXT,
                        package TEXT,
                        actor TEXT NOT NULL,
                        strategy TEXT NOT NULL,
                        description TEXT NOT NULL,
                        patch_hash TEXT NOT NULL,
                        patch TEXT NOT NULL,
                        verdict TEXT NOT NULL,
                        lesson TEXT,
                        created TEXT NOT NULL
                    );
                    CREATE INDEX IF NOT EXISTS heal_attempts_fingerprint ON heal_attempts(fingerprint);
                    CREATE INDEX IF NOT EXISTS heal_attempts_exception ON heal_attempts(exception_type, top_frame);
                    CREATE INDEX IF NOT EXISTS heal_attempts_rule ON heal_attempts(rule_id);
                    CREATE INDEX IF NOT EXISTS heal_attempts_package ON heal_attempts(package);
                    CREATE TABLE IF NOT EXISTS heal_locks(
                        fingerprint TEXT PRIMARY KEY,
                        pid INTEGER NOT NULL,
                        host TEXT NOT NULL,
                        started TEXT NOT NULL
                    );
                    """),
            // The change itself, whatever its diff looks like: what failed on a signal is skipped
            // by key, without a diff per candidate.
            Migration(
                version: 2,
                sql: """
                    ALTER TABLE heal_attempts ADD COLUMN change_key TEXT;
                    CREATE INDEX IF NOT EXISTS heal_attempts_change ON heal_attempts(fingerprint, change_key);
                    """),
            // The repository an attempt was made on: memory offers a fix only to the same one.
            // Older rows have none, and are never offered.
            Migration(
                version: 3,
                sql: """
                    ALTER TABLE heal_attempts ADD COLUMN repository TEXT;
                    CREATE INDEX IF NOT EXISTS heal_attempts_repository ON heal_attempts(repository, fingerprint);
                    """),
            // Each signal's vector per embedder (``SignalEmbedder``), made when a heal first asks for
            // signals like it: retrieval by similarity across signals of one repository.
            Migration(
                version: 4,
                sql: """
                    CREATE TABLE IF NOT EXISTS heal_signal_vectors(
                        repository TEXT NOT NULL,
                        fingerprint TEXT NOT NULL,
                        embedder TEXT NOT NULL,
                        vector BLOB NOT NULL,
                        PRIMARY KEY (repository, fingerprint, embedder)
                    );
                    """),
            // The verify command's result on an unchanged tree, by tree, command and sandbox
            // (``BaselineKey``): a heal of the same tree does not run it again.
            Migration(
                version: 5,
                sql: """
                    CREATE TABLE IF NOT EXISTS heal_baselines(
                        key TEXT PRIMARY KEY,
                        verification TEXT NOT NULL,
                        output TEXT NOT NULL,
                        created REAL NOT NULL
                    );
                    """),
        ], remedy: "use the Sentinel that wrote it, or move the file aside")

    /// Opens (creating) the memory at `path`. A file that is not a SQLite database, or fails
    /// SQLite's quick check, is `SentinelError(.invalidInput)` (exit 2): it is reported and left
    /// as it is, never silently reset.
    public init(path: String, redactor: Redactor = Redactor(), embedder: any SignalEmbedder = LocalSignalEmbedding()) throws {
        self.path = path
        self.redactor = redactor
        self.embedder = embedder
        do {
            let database = try Database(path: path)
            let check = try database.prepare("PRAGMA quick_check")
            guard try check.step(), check.text(0) == "ok" else {
                throw SentinelError(.io, "quick_check failed")
            }
            try database.migrate(Self.schema)
            self.database = Mutex(database)
        } catch let error as SentinelError where error.code == .invalidInput {
            throw error
        } catch let error as SentinelError {
            throw SentinelError(
                .invalidInput,
                "\(path): heal memory is damaged or not a database (\(Self.cause(error.message))); move it aside to start afresh")
        }
    }

    /// The memory of the state directory.
    public convenience init(
        state: StateDirectory, redactor: Redactor = Redactor(), embedder: any SignalEmbedder = LocalSignalEmbedding()
    ) throws {
        try self.init(path: state.file("heal.sqlite"), redactor: redactor, embedder: embedder)
    }

    private static func cause(_ message: String) -> String {
        message.split(separator: ":").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? message
    }

    /// Records one attempt at `signal` in `repository` (``RepositoryIdentity``); returns its id.
    @discardableResult
    public func record(_ attempt: Attempt, for signal: Signal, repository: String, at date: Date = Date()) throws -> Int64 {
        try database.withLock { database in
            let insert = try database.prepare(
                """
                INSERT INTO heal_attempts(fingerprint, kind, signal_message, exception_type, top_frame, rule_id, package,
                    actor, strategy, description, patch_hash, patch, verdict, lesson, created, change_key, repository)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17)
                """)
            insert.bind(1, signal.fingerprint)
            insert.bind(2, signal.kind.rawValue)
            insert.bind(3, redactor.redact(signal.message))
            insert.bind(4, signal.exceptionType)
            insert.bind(5, signal.topFrames.first)
            insert.bind(6, signal.ruleId)
            insert.bind(7, signal.dependency?.package.lowercased())
            insert.bind(8, attempt.actor.rawValue)
            insert.bind(9, attempt.strategy)
            insert.bind(10, redactor.redact(attempt.description))
            insert.bind(11, attempt.patchHash)
            insert.bind(12, attempt.patch)
            insert.bind(13, attempt.verdict.rawValue)
            insert.bind(14, attempt.lesson.map { redactor.redact($0.summary) })
            insert.bind(15, Self.timestamp(date))
            insert.bind(16, attempt.changeKey)
            insert.bind(17, repository)
            try insert.run()
            return database.lastInsertRowID
        }
    }

    /// Past attempts in `repository` at `signal` or similar ones: verified first, then this very
    /// signal's, newest first; at most `limit`. A rule id (or exception, or package) alone never
    /// brings in what another repository learnt.
    public func similar(to signal: Signal, repository: String, limit: Int = 20) throws -> [MemoryRecord] {
        try database.withLock { database in
            let query = try database.prepare(
                """
                SELECT \(Self.columns), fingerprint = ?1 AS exact FROM heal_attempts
                WHERE repository = ?7 AND (
                    fingerprint = ?1
                    OR (?2 IS NOT NULL AND exception_type = ?2 AND top_frame IS ?3)
                    OR (?4 IS NOT NULL AND rule_id = ?4)
                    OR (?5 IS NOT NULL AND package = ?5))
                ORDER BY verdict = 'verified' DESC, exact DESC, id DESC
                LIMIT ?6
                """)
            query.bind(1, signal.fingerprint)
            query.bind(2, signal.exceptionType)
            query.bind(3, signal.topFrames.first)
            query.bind(4, signal.ruleId)
            query.bind(5, signal.dependency?.package.lowercased())
            query.bind(6, limit)
            query.bind(7, repository)
            var records: [MemoryRecord] = []
            while try query.step() {
                var record = Self.row(query)
                record.exact = query.int(17) != 0
                records.append(record)
            }
            return records
        }
    }

    /// The share of `actor`'s judged attempts that verified, or nil when memory has none (the
    /// controller's risk then takes its no-history value).
    public func successShare(of actor: ActorKind) throws -> Double? {
        let rate = try successRate(of: actor)
        return rate.total > 0 ? Double(rate.verified) / Double(rate.total) : nil
    }

    /// Verified and total judged attempts of `actor` (all signals): its verified success rate.
    public func successRate(of actor: ActorKind) throws -> (verified: Int, total: Int) {
        try database.withLock { database in
            let query = try database.prepare(
                """
                SELECT COALESCE(SUM(verdict = 'verified'), 0), COUNT(*) FROM heal_attempts
                WHERE actor = ?1 AND verdict IN ('verified', 'failed', 'flaky')
                """)
            query.bind(1, actor.rawValue)
            _ = try query.step()
            return (Int(query.int(0)), Int(query.int(1)))
        }
    }

    /// The changes (``Attempt/changeKey``) that failed or were refused on this very signal (its
    /// fingerprint) in `repository` before, at most `limit`: a later heal of it skips them
    /// instead of judging them again.
    public func failedChanges(of signal: Signal, repository: String, limit: Int = 10_000) throws -> Set<String> {
        try database.withLock { database in
            let query = try database.prepare(
                """
                SELECT DISTINCT change_key FROM heal_attempts
                WHERE fingerprint = ?1 AND repository = ?3 AND change_key IS NOT NULL AND verdict IN ('failed', 'rejected')
                LIMIT ?2
                """)
            query.bind(1, signal.fingerprint)
            query.bind(2, limit)
            query.bind(3, repository)
            var hashes = Set<String>()
            while try query.step() { if let hash = query.text(0) { hashes.insert(hash) } }
            return hashes
        }
    }

    /// Every record, newest first.
    public func list(limit: Int = 1000) throws -> [MemoryRecord] {
        try database.withLock { database in
            let query = try database.prepare("SELECT \(Self.columns) FROM heal_attempts ORDER BY id DESC LIMIT ?1")
            query.bind(1, limit)
            var records: [MemoryRecord] = []
            while try query.step() { records.append(Self.row(query)) }
            return records
        }
    }

    /// The record `id`, or nil.
    public func record(id: Int64) throws -> MemoryRecord? {
        try database.withLock { database in
            let query = try database.prepare("SELECT \(Self.columns) FROM heal_attempts WHERE id = ?1")
            query.bind(1, id)
            return try query.step() ? Self.row(query) : nil
        }
    }

    /// Deletes record `id`; false when there was none.
    @discardableResult
    public func forget(id: Int64) throws -> Bool {
        try database.withLock { database in
            let delete = try database.prepare("DELETE FROM heal_attempts WHERE id = ?1")
            delete.bind(1, id)
            try delete.run()
            return database.changes > 0
        }
    }

    // MARK: - Locks

    /// Takes the lock on `fingerprint` for this process. A lock held by a live process on this
    /// host is `SentinelError(.healBusy)`; one left by a process that is gone is taken over.
    public func acquireLock(_ fingerprint: String, pid: Int32 = getpid()) throws {
        let host = ProcessInfo.processInfo.hostName
        try database.withLock { database in
            try database.transaction {
                let query = try database.prepare("SELECT pid, host, started FROM heal_locks WHERE fingerprint = ?1")
                query.bind(1, fingerprint)
                if try query.step() {
                    let holder = Int32(truncatingIfNeeded: query.int(0))
                    let holderHost = query.text(1) ?? ""
                    let started = query.text(2) ?? ""
                    let alive = holderHost != host || kill(holder, 0) == 0 || errno == EPERM
                    if holder != pid, alive {
                        throw SentinelError(
                            .healBusy,
                            "another heal (pid \(holder) on \(holderHost), since \(started)) is working on signal \(fingerprint)")
                    }
                }
                let upsert = try database.prepare(
                    "INSERT OR REPLACE INTO heal_locks(fingerprint, pid, host, started) VALUES (?1, ?2, ?3, ?4)")
                upsert.bind(1, fingerprint)
                upsert.bind(2, Int(pid))
                upsert.bind(3, host)
                upsert.bind(4, Self.timestamp(Date()))
                try upsert.run()
            }
        }
    }

    /// Releases this process's lock on `fingerprint`.
    public func releaseLock(_ fingerprint: String, pid: Int32 = getpid()) {
        database.withLock { database in
            guard let delete = try? database.prepare("DELETE FROM heal_locks WHERE fingerprint = ?1 AND pid = ?2")
            else { return }
            delete.bind(1, fingerprint)
            delete.bind(2, Int(pid))
            try? delete.run()
        }
    }

    /// Runs `body` with the connection, under the memory's lock.
    func withDatabase<Result: Sendable>(_ body: (Database) throws -> Result) throws -> Result {
        try database.withLock { database in try body(database) }
    }

    static let columns = """
        id, fingerprint, kind, signal_message, exception_type, top_frame, rule_id, package, actor, strategy, \
        description, patch_hash, patch, verdict, lesson, created, repository
        """

    static func row(_ query: Statement) -> MemoryRecord {
        MemoryRecord(
            id: query.int(0), fingerprint: query.text(1) ?? "", kind: query.text(2) ?? "",
            signalMessage: query.text(3) ?? "", exceptionType: query.text(4), topFrame: query.text(5),
            ruleId: query.text(6), package: query.text(7), actor: query.text(8) ?? "", strategy: query.text(9) ?? "",
            description: query.text(10) ?? "", patchHash: query.text(11) ?? "", patch: query.text(12) ?? "",
            verdict: Verdict(stored: query.text(13)), lesson: query.text(14), created: query.text(15) ?? "",
            repository: query.text(16))
    }

    static func timestamp(_ date: Date) -> String {
        UTCTimestamp.string(date, milliseconds: false)
    }
}
