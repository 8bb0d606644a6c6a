import Foundation
import Support
import TestSupport
import Testing

@testable import Store

/// Issue 57, numbered migrations: a fleet database made by the last build before them (commit
/// a8110d2, `fleet_schema` version 1) is taken up as migration 1 and brought to the latest, its
/// rows intact and read as typed jobs; the state CHECK holds; a second migrate changes nothing; a
/// newer database is refused. On SQLite and on a throwaway PostgreSQL.
@Suite("Fleet schema migrations (SQLite and PostgreSQL)")
struct QueueMigrationTests {
    /// Every migration's version, as `fleet_schema_migrations` rows.
    static let versions = QueueSchema.migrations.map { [String($0.version)] }

    /// The fleet tables exactly as a8110d2's `QueueSchema.statements` created them (`{serial}` is
    /// expanded per backend as its storage did): a fixture, frozen, not the migration's own text.
    static let legacySchema = """
        CREATE TABLE IF NOT EXISTS fleet_jobs (
            id {serial},
            kind TEXT NOT NULL,
            spec TEXT NOT NULL,
            repository TEXT NOT NULL,
            branch TEXT NOT NULL DEFAULT '',
            priority INTEGER NOT NULL DEFAULT 0,
            state TEXT NOT NULL DEFAULT 'queued',
            attempts INTEGER NOT NULL DEFAULT 0,
            max_attempts INTEGER NOT NULL,
            run_after DOUBLE PRECISION NOT NULL,
            created_at DOUBLE PRECISION NOT NULL,
            started_at DOUBLE PRECISION,
            finished_at DOUBLE PRECISION,
            lease_owner TEXT,
            lease_token TEXT,
            lease_until DOUBLE PRECISION,
            lease_expiries INTEGER NOT NULL DEFAULT 0,
            cancel_requested INTEGER NOT NULL DEFAULT 0,
            exclusive_key TEXT,
            last_error TEXT
        );
        CREATE INDEX IF NOT EXISTS fleet_jobs_ready ON fleet_jobs (priority DESC, run_after, id) WHERE state = 'queued';
        CREATE INDEX IF NOT EXISTS fleet_jobs_leases ON fleet_jobs (lease_until) WHERE state = 'running';
        CREATE INDEX IF NOT EXISTS fleet_jobs_state ON fleet_jobs (state);
        CREATE INDEX IF NOT EXISTS fleet_jobs_branch ON fleet_jobs (repository, branch, id);
        CREATE TABLE IF NOT EXISTS fleet_results (
            job_id BIGINT PRIMARY KEY REFERENCES fleet_jobs (id),
            exit_status INTEGER NOT NULL,
            report TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS fleet_findings (
            job_id BIGINT NOT NULL REFERENCES fleet_jobs (id),
            repository TEXT NOT NULL,
            branch TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            rule_id TEXT NOT NULL,
            severity TEXT NOT NULL,
            location TEXT NOT NULL,
            PRIMARY KEY (job_id, fingerprint)
        );
        CREATE INDEX IF NOT EXISTS fleet_findings_history ON fleet_findings (repository, branch, fingerprint, job_id);
        CREATE TABLE IF NOT EXISTS fleet_schedules (
            name TEXT PRIMARY KEY,
            kind TEXT NOT NULL,
            spec TEXT NOT NULL,
            repository TEXT NOT NULL,
            branch TEXT NOT NULL,
            priority INTEGER NOT NULL,
            max_attempts INTEGER NOT NULL,
            interval_seconds DOUBLE PRECISION NOT NULL,
            next_run DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE IF NOT EXISTS fleet_approvals (
            proposal TEXT PRIMARY KEY,
            approved INTEGER NOT NULL,
            reason TEXT NOT NULL,
            decided_at DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE IF NOT EXISTS fleet_proposals (
            change_key TEXT PRIMARY KEY,
            job_id BIGINT NOT NULL,
            created_at DOUBLE PRECISION NOT NULL
        );
        CREATE TABLE IF NOT EXISTS fleet_audit (seq BIGINT PRIMARY KEY, line TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS fleet_audit_head (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            seq BIGINT NOT NULL,
            hash TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS fleet_memory (id {serial}, key TEXT NOT NULL UNIQUE, record TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS fleet_schema (version INTEGER NOT NULL);
        """

    /// Every version this build migrates to, as `fleet_schema_migrations` lists them.
    static var allVersions: [[String]] { QueueSchema.migrations.map { [String($0.version)] } }

    /// A database as a8110d2 left it: its schema, its version row, and jobs in every state it
    /// wrote (plus one written straight into the table with a state no build knows), a result with
    /// findings, a schedule, a decision, a proposal, an audit line and head, a memory record.

    static func legacyDatabase(_ backend: QueueBackend) throws -> (url: DatabaseURL, raw: RawConnection) {
        let url = try backend.freshURL()
        let raw = try RawConnection(url)
        let serial = backend == .postgres ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY AUTOINCREMENT"
        if backend == .sqlite { try raw.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL") }
        try raw.execute("BEGIN")
        try raw.execute(legacySchema.replacingOccurrences(of: "{serial}", with: serial))
        try raw.execute("INSERT INTO fleet_schema (version) VALUES (1)")
        try raw.execute(
            """
            INSERT INTO fleet_jobs (kind, spec, repository, branch, priority, state, attempts, max_attempts, run_after, created_at,
                started_at, finished_at, lease_owner, lease_token, lease_until, lease_expiries, cancel_requested, exclusive_key, last_error)
            VALUES
                ('scan', '{"tools":["native"]}', '/srv/repos/shop', 'main', 5, 'queued', 0, 5, 1700000000.5, 1700000000.5,
                    NULL, NULL, NULL, NULL, NULL, 0, 0, NULL, NULL),
                ('heal', '{"signal":"s"}', '/srv/repos/shop', '', 0, 'running', 1, 3, 1700000001, 1700000001,
                    1700000002.25, NULL, 'host:7:0', 'token-2', 4000000000, 0, 1, 'key-2', NULL),
                ('scan', '{}', '/srv/repos/shop', 'main', 0, 'succeeded', 1, 5, 1700000003, 1700000003,
                    1700000004, 1700000005, 'host:7:1', NULL, NULL, 0, 0, NULL, NULL),
                ('dast', '{}', 'https://staging.example', '', 0, 'failed', 1, 5, 1700000006, 1700000006,
                    1700000007, 1700000008, NULL, NULL, NULL, 0, 0, NULL, 'target not allowed'),
                ('scan', '{}', 'repo', '', 0, 'dead', 3, 3, 1700000009, 1700000009,
                    1700000010, 1700000011, NULL, NULL, NULL, 1, 0, NULL, 'boom (attempt 3 of 3; dead-lettered)'),
                ('scan', '{}', 'repo', '', 0, 'cancelled', 0, 5, 1700000012, 1700000012,
                    NULL, 1700000013, NULL, NULL, NULL, 0, 1, NULL, NULL),
                ('scan', '{}', 'repo', '', 0, 'paused', 1, 5, 1700000014, 1700000014,
                    1700000015, NULL, 'host:9:0', 'token-7', 1700000016, 0, 0, NULL, NULL)
            """)
        try raw.execute(
            """
            INSERT INTO fleet_results (job_id, exit_status, report) VALUES (3, 1, '{"findings":2}');
            INSERT INTO fleet_findings (job_id, repository, branch, fingerprint, rule_id, severity, location) VALUES
                (3, '/srv/repos/shop', 'main', 'fa', 'R1', 'high', 'a.py:3'),
                (3, '/srv/repos/shop', 'main', 'fb', 'R2', 'low', 'b.py:9');
            INSERT INTO fleet_schedules (name, kind, spec, repository, branch, priority, max_attempts, interval_seconds, next_run)
                VALUES ('nightly', 'scan', '{}', '/srv/repos/shop', 'main', 1, 4, 86400, 1700086400);
            INSERT INTO fleet_approvals (proposal, approved, reason, decided_at) VALUES ('job-2', 1, 'looks right', 1700000003);
            INSERT INTO fleet_proposals (change_key, job_id, created_at) VALUES ('change-abc', 2, 1700000002);
            INSERT INTO fleet_audit (seq, line) VALUES (1, '{"event":"job.succeeded"}');
            INSERT INTO fleet_audit_head (id, seq, hash) VALUES (1, 1, 'h1');
            INSERT INTO fleet_memory (key, record) VALUES ('k1', '{"fix":"x"}')
            """)
        try raw.execute("COMMIT")
        return (url, raw)
    }

    @Test(
        "a database of the build before numbered migrations is migration 1, brought to the latest with its rows intact",
        arguments: QueueBackend.available)
    func upgradeFromLegacy(_ backend: QueueBackend) throws {
        let (url, raw) = try Self.legacyDatabase(backend)
        let queue = try JobQueue(url: url)

        #expect(
            try raw.rows("SELECT version, name FROM fleet_schema_migrations ORDER BY version")
                == QueueSchema.migrations.map { [String($0.version), $0.name] })
        #expect(Array(QueueSchema.migrations.prefix(2).map(\.name)) == ["001_initial", "002_job_state_check"])
        #expect(
            try raw.rows("SELECT version FROM fleet_schema") == [[String(QueueSchema.latestVersion)]],
            "builds that read only fleet_schema see a newer database")

        let queued = try #require(try queue.job(1))
        #expect(
            queued.request
                == JobRequest(
                    kind: .scan, spec: "{\"tools\":[\"native\"]}", repository: "/srv/repos/shop", branch: "main", priority: 5,
                    maxAttempts: 5, delay: 0))
        #expect(queued.state == .queued && queued.attempts == 0 && queued.lease == nil && queued.createdAt == 1700000000.5)
        #expect(queued.startedAt == nil && queued.finishedAt == nil && queued.lastError == nil && queued.leaseExpiries == 0)
        let running = try #require(try queue.job(2))
        #expect(running.request.kind == .heal && running.request.exclusiveKey == "key-2" && running.state == .running)
        #expect(running.lease == JobLease(jobID: 2, token: "token-2", owner: "host:7:0") && running.startedAt == 1700000002.25)
        let succeeded = try #require(try queue.job(3))
        #expect(succeeded.state == .succeeded && succeeded.finishedAt == 1700000005 && succeeded.lease == nil)
        let finding = { (fingerprint: String, rule: String, severity: String, location: String) in
            StoredFinding(fingerprint: fingerprint, ruleID: rule, severity: severity, location: location)
        }
        #expect(
            try queue.result(3)
                == JobResult(
                    exitStatus: 1, report: "{\"findings\":2}",
                    findings: [finding("fa", "R1", "high", "a.py:3"), finding("fb", "R2", "low", "b.py:9")]))
        let failed = try #require(try queue.job(4))
        #expect(failed.request.kind == .dast && failed.state == .failed && failed.lastError == "target not allowed")
        let dead = try #require(try queue.job(5))
        #expect(
            dead.state == .dead && dead.attempts == 3 && dead.leaseExpiries == 1 && dead.lastError == "boom (attempt 3 of 3; dead-lettered)"
        )
        #expect(try queue.job(6)?.state == .cancelled)
        // The row no build could have written is failed, saying what it held, not dropped.
        let unknown = try #require(try queue.job(7))
        #expect(unknown.state == .failed && unknown.lease == nil && unknown.finishedAt != nil)
        #expect(unknown.lastError == "not a job this worker reads: unknown state 'paused' (failed by migration 2)")

        var counts = QueueCounts()
        (counts.queued, counts.running, counts.succeeded, counts.failed, counts.dead, counts.cancelled) = (1, 1, 1, 2, 1, 1)
        #expect(try queue.counts() == counts)
        #expect(try queue.listing().unreadable.isEmpty && queue.listing().jobs.map(\.id) == [7, 6, 5, 4, 3, 2, 1])
        #expect(
            try queue.schedules() == [
                Schedule(
                    name: "nightly",
                    request: JobRequest(
                        kind: .scan, spec: "{}", repository: "/srv/repos/shop", branch: "main", priority: 1, maxAttempts: 4),
                    interval: 86400, nextRun: 1700086400)
            ])
        // A decision keyed by the job alone is kept as it was, and approves nothing now: a decision
        // names a recorded patch, and no job from before 003_patch_approvals has one.
        #expect(try raw.rows("SELECT proposal, approved, reason FROM fleet_approvals") == [["job-2", "1", "looks right"]])
        #expect(try queue.patch(of: 2) == nil && queue.decisions(2).isEmpty && queue.submitter(of: 2) == nil)
        #expect(throws: SentinelError.self) { try queue.decide(2, digest: nil, approved: false, reason: "x") }
        #expect(try !queue.recordProposal("change-abc", jobID: 9) && queue.recordProposal("change-abc", jobID: 2))
        #expect(try queue.auditLines() == ["{\"event\":\"job.succeeded\"}"])
        let head = try #require(try queue.auditHead())
        #expect(head.sequence == 1 && head.hash == "h1")
        #expect(try queue.sharedMemory().map(\.record) == ["{\"fix\":\"x\"}"])
        // The shared-memory cursor's migration: the old row comes before every new one and is final.
        let shared = try queue.sharedMemory()
        #expect(shared.map(\.cursor.transaction) == [0] && shared.allSatisfy(\.final))
        try queue.shareMemory([(key: "k2", record: "{}")])
        #expect(try queue.sharedMemory(after: shared[0].cursor).map(\.key) == ["k2"])

        // The queue works on: the next id follows the old ones, the queued job is claimed.
        #expect(try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo")) == 8)
        #expect(try queue.claim(owner: "w", leaseSeconds: 60)?.id == 1)
    }

    @Test("after migration the database refuses a job state no build knows", arguments: QueueBackend.available)
    func stateCheck(_ backend: QueueBackend) throws {
        let (url, raw) = try Self.legacyDatabase(backend)
        _ = try JobQueue(url: url)
        #expect(throws: (any Error).self) { try raw.execute("UPDATE fleet_jobs SET state = 'bogus' WHERE id = 1") }
        #expect(throws: (any Error).self) {
            try raw.execute(
                "INSERT INTO fleet_jobs (kind, spec, repository, state, max_attempts, run_after, created_at) VALUES ('scan', '{}', 'r', 'Queued', 1, 0, 0)"
            )
        }
        #expect(try raw.rows("SELECT state FROM fleet_jobs WHERE id = 1") == [["queued"]])
        // Every state this build writes passes the CHECK: the enum and migration 2 agree.
        for state in JobState.allCases {
            try raw.execute("UPDATE fleet_jobs SET state = '\(state.rawValue)' WHERE id = 1")
        }
        #expect(JobState.allCases.map(\.rawValue) == QueueSchema.jobStates)
    }

    @Test("a fresh database gets every migration and the same CHECK", arguments: QueueBackend.available)
    func freshDatabase(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        let queue = try JobQueue(url: url)
        let raw = try RawConnection(url)
        #expect(try raw.rows("SELECT version FROM fleet_schema_migrations ORDER BY version") == Self.versions)
        let id = try queue.submit(JobRequest(kind: .scan, spec: "{}", repository: "repo"))
        #expect(throws: (any Error).self) { try raw.execute("UPDATE fleet_jobs SET state = 'bogus' WHERE id = \(id)") }
        #expect(try queue.job(id)?.state == .queued)
    }

    @Test("migrating again is a no-op: no migration runs, no table changes", arguments: QueueBackend.available)
    func rerunIsNoOp(_ backend: QueueBackend) throws {
        let (url, raw) = try Self.legacyDatabase(backend)
        _ = try JobQueue(url: url)
        let migrations = "SELECT version, name, applied_at FROM fleet_schema_migrations ORDER BY version"
        let recorded = try raw.rows(migrations)
        // Any DDL bumps SQLite's schema cookie; on PostgreSQL it rewrites the table's catalog row.
        let schemaStamp =
            backend == .sqlite
            ? "PRAGMA schema_version"
            : "SELECT xmin::text FROM pg_class WHERE oid IN ('fleet_jobs'::regclass, 'fleet_schema_migrations'::regclass) ORDER BY oid"
        let stamp = try raw.rows(schemaStamp)
        let jobs = try raw.rows("SELECT * FROM fleet_jobs ORDER BY id")
        let queue = try JobQueue(url: url)
        // The locked path too, which a current database never takes: it finds nothing to do.
        #expect(try queue.storage.transaction { try QueueSchema.migrateOneStep(queue.storage) } == false)
        #expect(try raw.rows(migrations) == recorded && recorded.count == QueueSchema.latestVersion)
        #expect(try raw.rows(schemaStamp) == stamp)
        #expect(try raw.rows("SELECT * FROM fleet_jobs ORDER BY id") == jobs)
    }

    @Test("workers opening a legacy database together migrate it once", arguments: QueueBackend.available)
    func concurrentMigrators(_ backend: QueueBackend) throws {
        let (url, raw) = try Self.legacyDatabase(backend)
        let openers = (0..<4).map { _ in BlockingWaiter { try JobQueue(url: url).counts() } }
        for opener in openers { #expect(try opener.result().queued == 1) }
        #expect(try raw.rows("SELECT version FROM fleet_schema_migrations ORDER BY version") == Self.versions)
        #expect(try raw.rows("SELECT count(*) FROM fleet_jobs") == [["7"]])
    }

    @Test("a database newer than this build is refused, not written", arguments: QueueBackend.available)
    func newerDatabase(_ backend: QueueBackend) throws {
        let url = try backend.freshURL()
        _ = try JobQueue(url: url)
        let raw = try RawConnection(url)
        let future = QueueSchema.latestVersion + 1
        try raw.execute("INSERT INTO fleet_schema_migrations (version, name, applied_at) VALUES (\(future), 'future', 0)")
        let error = try #require(throws: SentinelError.self) { try JobQueue(url: url) }
        #expect(
            error.code == .database
                && error.message.hasSuffix(
                    "the fleet tables are at migration \(future), newer than this sentinel knows (\(QueueSchema.latestVersion)); upgrade sentinel"
                ))
        #expect(try raw.rows("SELECT version FROM fleet_schema_migrations ORDER BY version") == Self.versions + [[String(future)]])

        // One from before numbered migrations with a version above 1 no build released: refused too.
        let legacy = try Self.legacyDatabase(backend)
        try legacy.raw.execute("UPDATE fleet_schema SET version = \(future + 1)")
        let old = try #require(throws: SentinelError.self) { try JobQueue(url: legacy.url) }
        #expect(
            old.message.hasSuffix(
                "the fleet tables are at migration \(future + 1), newer than this sentinel knows (\(QueueSchema.latestVersion)); upgrade sentinel"
            ))
    }
}
