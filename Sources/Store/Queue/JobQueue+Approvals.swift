import Digest
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Approvals bound to the patch and to the database's identity (issue 58). A heal job's worker
/// records its verified patch before it waits; a decision names the patch by its SHA-256 and is
/// refused unless the job is waiting with exactly that patch. Who decided is never the client's
/// word: on PostgreSQL a trigger sets `approver` to `session_user`; on SQLite (one machine) it is
/// the operating-system account of the effective uid, never `$USER`.
extension JobQueue {
    /// The shortest digest prefix a decision may name: 12 hex digits, 48 bits, as git's short ids.
    public static let minimumDigestPrefix = 12
    /// The largest patch the fleet holds for a decision.
    public static let patchLimit = 16 << 20
    /// The channel decisions are announced on.
    static let decisionsChannel = "sentinel_decisions"

    /// Records the verified patch of the job `lease` holds (replacing an earlier attempt's), and
    /// whether its worker now waits for a decision; returns its digest, nil when the lease is no
    /// longer held (nothing is recorded). A patch larger than `patchLimit` is `.invalidInput`.
    @discardableResult
    public func recordPatch(
        _ lease: JobLease, patch: String, description: String?, actor: String?, evidence: String?, awaiting: Bool
    ) throws -> String? {
        guard patch.utf8.count <= Self.patchLimit else {
            throw SentinelError(.invalidInput, "job \(lease.jobID): a patch of \(patch.utf8.count) bytes is more than the fleet holds")
        }
        let digest = SHA256.hex(patch)
        let recorded = try storage.transaction {
            let held = try storage.rows(
                "SELECT id FROM fleet_jobs WHERE id = $1 AND lease_token = $2 AND state = 'running'", [String(lease.jobID), lease.token])
            guard !held.isEmpty else { return false }
            try storage.rows(
                """
                INSERT INTO fleet_patches (job_id, digest, patch, description, actor, evidence, awaiting, recorded_at)
                VALUES ($1, $2, $3, $4, $5, $6, $7, {now})
                ON CONFLICT (job_id) DO UPDATE SET digest = excluded.digest, patch = excluded.patch,
                    description = excluded.description, actor = excluded.actor, evidence = excluded.evidence,
                    awaiting = excluded.awaiting, recorded_at = excluded.recorded_at, branch = NULL, commit_sha = NULL,
                    pull_request = NULL, publish_error = NULL
                """, [String(lease.jobID), digest, patch, description, actor, evidence, awaiting ? "1" : "0"])
            return true
        }
        return recorded ? digest : nil
    }

    /// Marks job `jobID`'s patch as no longer waiting (the wait ended, decided or not) and returns
    /// the decision on `digest`, if one was made: under the job's decision lock, so a decision is
    /// either taken here or refused as no longer awaited, never recorded unseen.
    @discardableResult
    public func endPatchWait(_ jobID: Int64, digest: String) throws -> PatchDecision? {
        try storage.transaction {
            try lockDecisions(of: jobID)
            try storage.rows("UPDATE fleet_patches SET awaiting = 0 WHERE job_id = $1", [String(jobID)])
            return try decision(jobID, digest: digest)
        }
    }

    /// On PostgreSQL, the transaction lock that orders a decision and the end of its wait (an
    /// advisory lock: no role needs a privilege on the patch row for it). SQLite's write lock does.
    private func lockDecisions(of jobID: Int64) throws {
        guard storage.isServer else { return }
        try storage.rows("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", ["sentinel-fleet-decision:\(jobID)"])
    }

    /// Records what publishing job `jobID`'s approved patch `digest` produced.
    public func recordPublication(_ jobID: Int64, digest: String, _ publication: PatchPublication) throws {
        try storage.rows(
            "UPDATE fleet_patches SET branch = $3, commit_sha = $4, pull_request = $5, publish_error = $6 WHERE job_id = $1 AND digest = $2",
            [String(jobID), digest, publication.branch, publication.commit, publication.pullRequest, publication.error])
    }

    /// Job `jobID`'s recorded patch, nil when it has none.
    public func patch(of jobID: Int64) throws -> JobPatch? {
        try storage.first(
            storage.rows(
                """
                SELECT job_id, digest, patch, description, actor, evidence, awaiting, recorded_at, branch, commit_sha,
                    pull_request, publish_error FROM fleet_patches WHERE job_id = $1
                """, [String(jobID)]), table: "fleet_patches"
        ) { row throws(RowDecodingError) in
            let digest = try row.text("digest")
            guard Self.isDigest(digest) else { throw RowDecodingError(.malformed, column: "digest", value: digest, expected: "a SHA-256") }
            let published = [
                try row.optionalText("branch"), try row.optionalText("commit_sha"), try row.optionalText("pull_request"),
                try row.optionalText("publish_error"),
            ]
            return JobPatch(
                jobID: try row.int64("job_id"), digest: digest, patch: try row.text("patch"),
                description: try row.optionalText("description"),
                actor: try row.optionalText("actor"), evidence: try row.optionalText("evidence"), awaiting: try row.flag("awaiting"),
                recordedAt: try row.double("recorded_at"),
                publication: published.allSatisfy { $0 == nil }
                    ? nil
                    : PatchPublication(branch: published[0], commit: published[1], pullRequest: published[2], error: published[3]))
        }
    }

    /// Decides on job `jobID`'s patch named by `digest` (the whole SHA-256 or a prefix of at least
    /// `minimumDigestPrefix` hex digits; nil for a denial of the recorded patch), and announces it
    /// (NOTIFY): the waiting worker wakes at once. Returns the decision as stored, with the
    /// approver the database recorded. Refused with `.invalidInput` (one line) when the job is no
    /// heal, has no patch yet, is not waiting for a decision, or the digest is not the recorded
    /// patch's (a patch swapped after it was shown); an approval always names its patch.
    @discardableResult
    public func decide(_ jobID: Int64, digest: String?, approved: Bool, reason: String) throws -> PatchDecision {
        let named = try digest.map { try Self.digestPrefix($0) }
        if approved, named == nil { throw SentinelError(.invalidInput, "job \(jobID): an approval names the patch's digest (--patch)") }
        return try storage.transaction {
            try lockDecisions(of: jobID)
            guard let job = try job(jobID), job.request.kind == .heal else {
                throw SentinelError(.invalidInput, "job \(jobID): no such heal job")
            }
            guard let patch = try patch(of: jobID) else {
                throw SentinelError(.invalidInput, "job \(jobID): no patch recorded yet; nothing to decide")
            }
            if let named, !patch.digest.hasPrefix(named) {
                throw SentinelError(
                    .invalidInput,
                    "job \(jobID): --patch \(named) is not the recorded patch (\(patch.digest.prefix(16))…); show it again with sentinel fleet show \(jobID)"
                )
            }
            if let earlier = try decision(jobID, digest: patch.digest) {
                throw SentinelError(
                    .invalidInput, "job \(jobID): patch \(patch.digest.prefix(16))… already \(earlier.approved ? "approved" : "denied")")
            }
            guard job.state == .running, patch.awaiting else {
                throw SentinelError(.invalidInput, "job \(jobID): not awaiting a decision (it is \(job.state.rawValue))")
            }
            if storage.isServer {
                // No approver column: an approver role may not name it (its grant leaves it out);
                // the trigger fills it with session_user.
                try storage.rows(
                    "INSERT INTO fleet_decisions (job_id, digest, approved, reason, decided_at) VALUES ($1, $2, $3, $4, {now})",
                    [String(jobID), patch.digest, approved ? "1" : "0", reason])
            } else {
                try storage.rows(
                    "INSERT INTO fleet_decisions (job_id, digest, approved, reason, approver, decided_at) VALUES ($1, $2, $3, $4, $5, {now})",
                    [String(jobID), patch.digest, approved ? "1" : "0", reason, Self.effectiveAccount()])
            }
            try storage.notify(Self.decisionsChannel, payload: String(jobID))
            guard let stored = try decision(jobID, digest: patch.digest) else {
                throw SentinelError(.database, "\(storage.name): the decision on job \(jobID) was not stored")
            }
            return stored
        }
    }

    /// The decision on job `jobID`'s patch `digest`, if one was made.
    public func decision(_ jobID: Int64, digest: String) throws -> PatchDecision? {
        try decisions(jobID).first { $0.digest == digest }
    }

    /// Every decision on job `jobID`'s patches, oldest first.
    public func decisions(_ jobID: Int64) throws -> [PatchDecision] {
        try storage.decode(
            storage.rows(
                "SELECT job_id, digest, approved, reason, approver, decided_at FROM fleet_decisions WHERE job_id = $1 ORDER BY decided_at, digest",
                [String(jobID)]), table: "fleet_decisions"
        ) { row throws(RowDecodingError) in
            PatchDecision(
                jobID: try row.int64("job_id"), digest: try row.text("digest"), approved: try row.flag("approved"),
                reason: try row.text("reason"), approver: try row.text("approver"), decidedAt: try row.double("decided_at"))
        }
    }

    /// Waits up to `timeout` seconds for a decision on job `jobID`'s patch `digest`. On PostgreSQL
    /// it sleeps in LISTEN until a decision's NOTIFY arrives (no polling); on SQLite it polls.
    public func waitForDecision(_ jobID: Int64, digest: String, timeout: Double) throws -> PatchDecision? {
        let deadline = MonotonicClock.seconds() + timeout
        // LISTEN first, then look: a decision made in between is not missed.
        _ = try storage.wait(channel: Self.decisionsChannel, timeout: 0)
        while true {
            if let decision = try decision(jobID, digest: digest) { return decision }
            let remaining = deadline - MonotonicClock.seconds()
            guard remaining > 0 else { return nil }
            _ = try storage.wait(channel: Self.decisionsChannel, timeout: remaining)
        }
    }

    /// Records that job `jobID` proposed the change `changeKey`; false when another job already did
    /// (the same proposal is never made twice). A retried attempt of the same job finds its own row.
    public func recordProposal(_ changeKey: String, jobID: Int64) throws -> Bool {
        try storage.rows(
            "INSERT INTO fleet_proposals (change_key, job_id, created_at) VALUES ($1, $2, {now}) ON CONFLICT (change_key) DO NOTHING",
            [changeKey, String(jobID)])
        return try storage.first(
            storage.rows("SELECT job_id FROM fleet_proposals WHERE change_key = $1", [changeKey]), table: "fleet_proposals"
        ) {
            row throws(RowDecodingError) in try row.int64("job_id")
        } == jobID
    }

    /// Records how attempt `attempt.attempt` of a job ended (or where it is: `awaiting-approval`),
    /// with the tail of its log (cut to `JobAttempt.logLimit` bytes here too); a later record of
    /// the same attempt replaces the earlier.
    public func recordAttempt(_ attempt: JobAttempt) throws {
        let log = Self.tail(attempt.log, limit: JobAttempt.logLimit)
        try storage.rows(
            """
            INSERT INTO fleet_attempts (job_id, attempt, worker, outcome, error, log, ended_at) VALUES ($1, $2, $3, $4, $5, $6, {now})
            ON CONFLICT (job_id, attempt) DO UPDATE SET worker = excluded.worker, outcome = excluded.outcome,
                error = excluded.error, log = excluded.log, ended_at = excluded.ended_at
            """,
            [
                String(attempt.jobID), String(attempt.attempt), attempt.worker, attempt.outcome,
                attempt.error.map { Self.tail($0, limit: 4096) }, log,
            ])
    }

    /// Job `jobID`'s recorded attempts, first first.
    public func attempts(of jobID: Int64) throws -> [JobAttempt] {
        try storage.decode(
            storage.rows(
                "SELECT job_id, attempt, worker, outcome, error, log, ended_at FROM fleet_attempts WHERE job_id = $1 ORDER BY attempt",
                [String(jobID)]), table: "fleet_attempts"
        ) { row throws(RowDecodingError) in
            JobAttempt(
                jobID: try row.int64("job_id"), attempt: try row.int("attempt"), worker: try row.text("worker"),
                outcome: try row.text("outcome"), error: try row.optionalText("error"),
                log: Self.tail(try row.text("log"), limit: JobAttempt.logLimit), endedAt: try row.double("ended_at"))
        }
    }

    /// Who submitted job `jobID` as the database recorded it (PostgreSQL's `session_user`); nil
    /// on SQLite, for a job from before migration 3, or for no such job.
    public func submitter(of jobID: Int64) throws -> String? {
        try storage.first(
            storage.rows("SELECT submitted_by FROM fleet_jobs WHERE id = $1", [String(jobID)]), table: "fleet_jobs"
        ) { row throws(RowDecodingError) in try row.optionalText("submitted_by") } ?? nil
    }

    /// `text`'s last `limit` bytes at most, cut at a line start when one is near.
    static func tail(_ text: String, limit: Int) -> String {
        let bytes = Array(text.utf8)
        guard bytes.count > limit else { return text }
        var start = bytes.count - limit
        if let newline = bytes[start...].firstIndex(of: 0x0A), newline - start < 1024 { start = newline + 1 }
        return String(decoding: bytes[start...], as: UTF8.self)
    }

    /// A digest or prefix as a decision may name it: lower-case hex, 12 to 64 digits.
    static func digestPrefix(_ text: String) throws -> String {
        let lowered = text.lowercased()
        guard lowered.count >= minimumDigestPrefix, lowered.count <= 64, lowered.allSatisfy({ $0.isHexDigit && $0.isASCII }) else {
            throw SentinelError(
                .invalidInput,
                "--patch: '\(String(text.prefix(80)))' is not a patch digest (\(minimumDigestPrefix) to 64 hex digits, as sentinel fleet show prints)"
            )
        }
        return lowered
    }

    /// A whole SHA-256 in lower-case hex.
    static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Who this connection acts as, as the database knows it: PostgreSQL's `session_user` (the login
    /// role), on SQLite the account of the effective uid. Never the environment.
    public func sessionIdentity() throws -> String {
        guard storage.isServer else { return Self.effectiveAccount() }
        return try storage.first(storage.rows("SELECT session_user AS identity", []), table: "session_user") {
            row throws(RowDecodingError) in try row.text("identity")
        } ?? Self.effectiveAccount()
    }

    /// The account name of this process's effective uid (`getpwuid`), or `uid N` when it has none:
    /// never the environment, which whoever runs the command chooses.
    public static func effectiveAccount() -> String {
        let uid = geteuid()
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 16 << 10)
        let status = getpwuid_r(uid, &entry, &buffer, buffer.count, &found)
        guard status == 0, found != nil, let name = entry.pw_name else { return "uid \(uid)" }
        return String(cString: name)
    }
}
