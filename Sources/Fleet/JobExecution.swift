import Audit
import Digest
import Findings
import Foundation
import Git
import Heal
import Store
import Support

/// How a job's run ended, as the worker records it.
enum ExecutionOutcome: Sendable {
    /// A result to record.
    case succeeded(JobResult)
    /// A failed attempt, and its class (the retry policy's rule for it decides what follows).
    case failed(String, FailureClass)
    /// Stopped because someone cancelled the job.
    case cancelled
    /// Stopped because the lease was lost: another worker owns the job now; record nothing.
    case leaseLost
    /// Not run, or stopped unfinished, and given back (the worker is stopping, a lock is busy).
    case released(String, delay: Double)
}

/// Runs one claimed job: checks out the repository when asked (a clone at the revision), runs
/// `sentinel scan` or `sentinel heal` as a child process while renewing the lease, and turns what it
/// wrote into a result. The heal of a signal takes the fleet-wide lock of its fingerprint first.
struct JobExecution {
    let job: Job
    let lease: JobLease
    let options: WorkerOptions
    let stop: StopState
    /// Renews the lease from the claim to the end of the job.
    let keeper: LeaseKeeper
    /// The worker's heal memory, shared through the fleet database around each heal.
    var memory: MemorySync?
    /// Told when memory could not be shared (the heal runs anyway, with what this machine knows).
    var onMemoryError: (any Error) -> Void = { _ in }
    /// Told how many shared records were dropped, unused, for want of a MAC this worker's key verifies.
    var onMemoryDropped: (Int) -> Void = { _ in }
    /// Told when a verified fix starts waiting for a decision, with its patch's digest (the worker logs it).
    var onAwaitingApproval: (Job, String) -> Void = { _, _ in }
    /// Told when the attempt's record (its error and log tail, for `fleet show`) could not be stored.
    var onAttemptRecordError: (any Error) -> Void = { _ in }
    /// Told when the audit chain refused an entry this execution appends (a publication).
    var onAuditError: (any Error) -> Void = { _ in }

    /// Wakes an approval wait when a decision is announced; nil: the wait polls.
    var listener: FleetListener?
    /// Where the job's scratch directory is made: the worker's own directory (`WorkerScratch`),
    /// swept when the worker is gone; nil: `$TMPDIR`.
    var scratchBase: String?

    /// The tail of the run's standard error, redacted: kept with the attempt for `fleet show`.
    var logTail = ""

    /// How long the run itself took (the rest of the job's time is overhead: checkout, start, upload).
    var runSeconds = 0.0
    /// When the job's time is up: `options.jobTimeout` after its run started. The run and any
    /// approval wait after it both end by then.
    var deadline = Double.infinity

    /// Runs the job; the worker records the outcome with `attemptRecord(of:)` in the outcome's own
    /// transaction.
    mutating func run(connection: WorkerConnection) -> ExecutionOutcome {
        attempt(connection: connection)
    }

    /// How this attempt ended, and its log's tail, as kept with the job (`fleet show`).
    func attemptRecord(of outcome: ExecutionOutcome, as label: String? = nil) -> JobAttempt {
        let (name, error): (String, String?)
        switch outcome {
        case .succeeded: (name, error) = ("succeeded", nil)
        case .failed(let reason, _): (name, error) = ("failed", reason)
        case .cancelled: (name, error) = ("cancelled", nil)
        case .leaseLost: (name, error) = ("lease-lost", nil)
        case .released(let reason, _): (name, error) = ("released", reason)
        }
        return JobAttempt(
            jobID: job.id, attempt: job.attempts, worker: options.name, outcome: label ?? name,
            error: error.map { Redactor.process.redact($0) }, log: logTail)
    }

    /// Keeps a stage of the attempt before its end (a verified patch awaiting approval); a failure
    /// here is told, not fatal.
    private func record(_ outcome: ExecutionOutcome, connection: WorkerConnection, as label: String) {
        do {
            let attempt = attemptRecord(of: outcome, as: label)
            try connection.with { try $0.recordAttempt(attempt) }
        } catch { onAttemptRecordError(error) }
    }

    private mutating func attempt(connection: WorkerConnection) -> ExecutionOutcome {
        let spec: FleetJobSpec
        do {
            spec = try FleetJobSpec.decode(job.request.spec, job: job.id)
        } catch {
            return .failed("\(error)", .invalid)
        }
        // Nothing to run: the queue's own cost, for benchmarks and health checks.
        if spec.kind == .noop { return .succeeded(JobResult(exitStatus: 0, report: "")) }
        let lockKey = job.request.exclusiveKey.map { HealLock.name(exclusiveKey: $0, key: options.audit.key) }
        if let lockKey {
            guard (try? connection.tryLock(lockKey)) == true else {
                return .released("a heal of the same signal is running elsewhere", delay: 5)
            }
        }
        defer { if let lockKey { connection.unlock(lockKey) } }
        do {
            let scratch = try ScratchDirectory.make(prefix: "sentinel-job", in: scratchBase)
            defer { ScratchDirectory.remove(scratch) }
            return try run(spec, scratch: scratch, connection: connection)
        } catch let error as SentinelError {
            return .failed(error.message, FailureClass.of(error))
        } catch {
            return .failed("\(error)", FailureClass.of(error))
        }
    }

    private mutating func run(_ spec: FleetJobSpec, scratch: String, connection: WorkerConnection) throws -> ExecutionOutcome {
        if spec.kind == .dast { try DASTTargetAllowList(options.dastTargets).check(spec.target, worker: options.name) }
        let (directory, local) = try checkout(spec, scratch: scratch)
        // The job reaches a local repository through this descriptor: open until the job ends.
        defer { withExtendedLifetime(local) {} }
        var arguments = try Self.arguments(for: spec, directory: directory, scratch: scratch)
        if let identity = Self.repositoryIdentity(of: spec, checkedPath: local?.path) { arguments += ["--repository-id", identity] }
        if spec.kind == .heal, let memory {
            do {
                let pulled = try connection.with { try memory.pull($0) }
                if pulled.dropped > 0 { onMemoryDropped(pulled.dropped) }
            } catch { onMemoryError(error) }
        }
        defer {
            if spec.kind == .heal, let memory {
                do { _ = try connection.with { try memory.push($0) } } catch { onMemoryError(error) }
            }
        }
        if let interrupted = interruption() { return interrupted }
        let started = MonotonicClock.seconds()
        deadline = started + options.jobTimeout
        let child = try JobProcess(
            executable: options.executable, arguments: arguments, directory: directory, scratch: scratch,
            environment: Self.environment(options.environment, temporary: scratchBase))
        let interrupted = supervise(child)
        logTail = Self.logTail(child.errorPath)
        if let interrupted { return interrupted }
        runSeconds = MonotonicClock.seconds() - started
        let shown = local.flatMap { directory == $0.heldPath ? $0.path : nil }
        return try outcome(
            of: child, spec: spec, directory: directory, shown: shown, local: local?.path, scratch: scratch, connection: connection)
    }

    /// The job's environment: the worker's, with `TMPDIR` in the worker's own scratch directory when
    /// it has one, so that what a killed job's processes leave there (a sandbox broker's directory)
    /// is swept with it by the next worker's start.
    static func environment(_ environment: [String: String], temporary: String?) -> [String: String] {
        guard let temporary else { return environment }
        var environment = environment
        environment["TMPDIR"] = temporary
        return environment
    }

    /// The tree to run in — a local repository itself (by its descriptor), a fresh clone at the
    /// revision, or an empty directory — and the local repository held open, if there is one.
    private func checkout(_ spec: FleetJobSpec, scratch: String) throws -> (String, LocalRepository?) {
        guard let repository = spec.repository else {
            let empty = scratch + "/target"
            try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
            return (empty, nil)
        }
        try FleetJobSpec.checkRevision(spec.revision)
        try FleetJobSpec.checkRepository(repository)
        var source = repository
        var local: LocalRepository?
        if let path = Self.localPath(repository) {
            local = try LocalRepository.open(path, repository: repository, roots: options.repositoryRoots, worker: options.name)
            source = (options.repositoriesByPath ? local?.path : local?.heldPath) ?? source
        } else {
            try CloneHosts(options.cloneHosts).check(repository, worker: options.name)
        }
        guard spec.isRemote || spec.revision != nil else { return (source, local) }
        // In the sandbox, as every git run: a local source bound read-only (by its checked real path:
        // a bind takes a path, not a descriptor), a remote's host the only egress. Shallow unless
        // the scan compares with an older revision (`--since` needs the history).
        let since = spec.arguments.contains { $0 == "--since" || $0.hasPrefix("--since=") }
        let bounds = GitClone.Bounds(
            seconds: options.cloneSeconds, bytes: options.cloneBytes, shallow: !since, timeName: "--clone-timeout",
            sizeName: "--clone-max-size")
        try GitClone.make(from: local?.path ?? source, into: scratch, name: "checkout", revision: spec.revision, bounds: bounds)
        if let local {
            // The bind resolved the path again: it must still be the directory that was checked.
            let again = try LocalRepository.open(
                local.path, repository: repository, roots: options.repositoryRoots, worker: options.name)
            guard try again.directory.status().st_ino == local.directory.status().st_ino,
                try again.directory.status().st_dev == local.directory.status().st_dev
            else {
                throw SentinelError(.invalidInput, "\(repository): changed while it was cloned; not scanned")
            }
        }
        return (scratch + "/checkout", local)
    }

    /// The path of a local repository (a path, or a `file://` URL); nil for a remote URL, which is
    /// cloned as it is (never with credentials).
    static func localPath(_ repository: String) -> String? {
        if repository.hasPrefix("file://") { return String(repository.dropFirst("file://".count)) }
        return repository.contains("://") || repository.hasPrefix("git@") ? nil : repository
    }

    /// What a heal job's memory files its attempts under: the repository the job names (for a local
    /// one, the path the worker checked), not the descriptor path or clone the heal is given.
    static func repositoryIdentity(of spec: FleetJobSpec, checkedPath: String?) -> String? {
        guard spec.kind == .heal, let repository = spec.repository else { return nil }
        return RepositoryIdentity.of(checkedPath.map { "file://" + $0 } ?? repository)
    }

    static func arguments(for spec: FleetJobSpec, directory: String, scratch: String) throws -> [String] {
        try FleetJobSpec.checkArguments(spec.arguments, kind: spec.kind)
        switch spec.kind {
        case .scan:
            return ["scan", directory] + spec.arguments + ["--quiet", "--format", "json", "--fleet-record", scratch + "/record.json"]
        case .dast:
            guard let target = spec.target else { throw SentinelError(.invalidInput, "a DAST job without a target URL") }
            return ["scan", directory, "--dast", target] + spec.arguments
                + ["--quiet", "--format", "json", "--fleet-record", scratch + "/record.json"]
        case .noop:
            throw SentinelError(.invalidInput, "a no-op job runs no command")
        case .heal:
            guard let signal = spec.signal, let verify = spec.verify else {
                throw SentinelError(.invalidInput, "a heal job without its signal or --verify command")
            }
            let signalFile = try PreparedOutputFile(path: scratch + "/signal")
            try signalFile.write(signal, mode: 0o600)
            return ["heal", "--signal", scratch + "/signal", "--repo", directory, "--verify", verify, "--out", scratch + "/out"]
                + spec.arguments
        }
    }

    /// Waits for the child, renewing the lease; stops it when the job is cancelled, the lease is
    /// lost, it runs too long or the worker abandons its jobs. Nil when it ended on its own.
    private func supervise(_ child: JobProcess) -> ExecutionOutcome? {
        // Short waits: a stop request, a cancellation or a lost lease is seen within a second.
        while !child.wait(seconds: 1) {
            if let interrupted = interruption() {
                child.stop()
                return interrupted
            }
            if MonotonicClock.seconds() > deadline {
                child.stop()
                return .failed("timed out after \(Int(options.jobTimeout)) s", .timeout)
            }
        }
        return nil
    }

    /// Why the job must stop now, if it must: the worker is abandoning its jobs, the job was
    /// cancelled, or its lease is lost.
    private func interruption() -> ExecutionOutcome? {
        if stop.current == .abandoning { return .released("worker \(options.name) stopped before the job finished", delay: 0) }
        switch keeper.status {
        case .held: return nil
        case .cancelRequested: return .cancelled
        case .lost: return .leaseLost
        }
    }

    /// `shown`: the local repository's path, recorded instead of the descriptor path the scan was given;
    /// `local`: the checked path of a local repository (an approved patch is committed in a clone of it).
    private mutating func outcome(
        of child: JobProcess, spec: FleetJobSpec, directory: String, shown: String?, local: String?, scratch: String,
        connection: WorkerConnection
    ) throws -> ExecutionOutcome {
        let status = child.status
        switch spec.kind {
        case .noop:
            return .succeeded(JobResult(exitStatus: 0, report: ""))
        case .scan, .dast:
            guard status == 0 || status == 1 else {
                let reason = "sentinel scan exited \(status): \(child.lastErrorLine())"
                return .failed(reason, FailureClass.ofExitStatus(status))
            }
            let data = try BoundedFile.read(scratch + "/record.json", limit: 512 << 20, followLinks: false)
            var record = try ScanRecord.decode(data, name: "job \(job.id) record")
            if let shown { record.directory = shown }
            let findings = record.report.findings.map { finding in
                StoredFinding(
                    fingerprint: finding.fingerprint, ruleID: finding.ruleId, severity: finding.severity.rawValue,
                    location: Self.location(finding.location))
            }
            return .succeeded(JobResult(exitStatus: status, report: try record.encoded(), findings: findings))
        case .heal:
            guard status == 0 || status == 1 else {
                return .failed("sentinel heal exited \(status): \(child.lastErrorLine())", FailureClass.ofExitStatus(status))
            }
            var record = HealRecord(exitStatus: status)
            if status == 0 {
                record.patch = Self.text(scratch + "/out/patch.diff")
                record.evidence = Self.text(scratch + "/out/evidence.json")
                let candidate =
                    record.evidence.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?[
                        "candidate"] as? [String: Any]
                record.actor = candidate?["actor"] as? String
                record.description = candidate?["description"] as? String
                if let patch = record.patch {
                    let key = SHA256.hex(job.request.repository + "\n" + patch)
                    record.duplicate = try !connection.with { try $0.recordProposal(key, jobID: job.id) }
                }
            }
            if let patch = record.patch, !record.duplicate {
                // In the database before any wait: what a person approves is this row, by its digest.
                let (description, actor, evidence) = (record.description, record.actor, record.evidence)
                let recorded = try connection.with { queue in
                    try queue.recordPatch(
                        lease, patch: patch, description: description, actor: actor, evidence: evidence,
                        awaiting: spec.awaitApproval != nil)
                }
                guard let digest = recorded else { return .leaseLost }
                record.patchDigest = digest
                if let seconds = spec.awaitApproval {
                    self.record(.succeeded(JobResult(exitStatus: status, report: "")), connection: connection, as: "awaiting-approval")
                    let interrupted = try awaitApproval(&record, digest: digest, seconds: seconds, connection: connection)
                    let decided = try connection.with { try $0.endPatchWait(job.id, digest: digest) }
                    if let interrupted { return interrupted }
                    // A decision committed after the wait's last look, before it ended, still stands.
                    if record.approval == .timedOut, let late = decided {
                        record.approval = late.approved ? .approved : .denied
                        record.approvalReason = late.reason.isEmpty ? nil : late.reason
                        record.approver = late.approver
                    }
                    if record.approval == .approved {
                        // What `proposals approve` does, by the worker holding the checkout (git in the sandbox).
                        let publication = ApprovedPatch(
                            job: job, digest: digest, patch: patch, description: record.description, approver: record.approver,
                            publisher: options.publisher
                        ).run(checkout: directory, isClone: directory == scratch + "/checkout", cloneSource: local, scratch: scratch)
                        record.publication = publication
                        try connection.with { try $0.recordPublication(job.id, digest: digest, publication) }
                        audit(publication, digest: digest, approver: record.approver, connection: connection)
                    }
                }
            }
            return .succeeded(JobResult(exitStatus: status, report: try record.encoded()))
        }
    }

    /// Holds the verified fix until a person decides (`fleet approve` / `fleet deny`): the worker
    /// sleeps on the worker's listener and wakes on the decision's NOTIFY, renewing its lease between waits. The
    /// worker bounds the wait, whatever the submitter asked: it ends at the job's deadline, or when
    /// the worker stops, as `timed out` with the reason, and the job ends there. Given back to the
    /// queue instead, it would run again and hold another slot (red team R9).
    private func awaitApproval(_ record: inout HealRecord, digest: String, seconds: Double, connection: WorkerConnection) throws
        -> ExecutionOutcome?
    {
        let asked = MonotonicClock.seconds() + seconds
        onAwaitingApproval(job, digest)
        while true {
            if stop.current == .abandoning {
                record.approval = .timedOut
                record.approvalReason = "no decision before worker \(options.name) stopped"
                return nil
            }
            if let interrupted = interruption() { return interrupted }
            let remaining = min(asked, deadline) - MonotonicClock.seconds()
            guard remaining > 0 else {
                record.approval = .timedOut
                if deadline < asked { record.approvalReason = "no decision within the worker's job timeout (\(Int(options.jobTimeout)) s)" }
                return nil
            }
            // Taken before the look: a decision announced between the look and the wait is not missed.
            let seen = listener?.decided.generation ?? 0
            do {
                if let decision = try connection.with({ try $0.decision(job.id, digest: digest) }) {
                    record.approval = decision.approved ? .approved : .denied
                    record.approvalReason = decision.reason.isEmpty ? nil : decision.reason
                    record.approver = decision.approver
                    return nil
                }
                if let listener {
                    listener.wait(listener.decided, after: seen, timeout: min(remaining, 1))
                } else {
                    Thread.sleep(forTimeInterval: min(remaining, FleetListener.pollInterval))
                }
            } catch {
                // The server went away: wait for it while the lease holds (the keeper says when not).
                connection.reconnectIfNeeded()
                Thread.sleep(forTimeInterval: 0.5)
            }
        }
    }

    /// Puts what the approval published (or why it did not) in the fleet's audit chain, as
    /// `proposals approve` audits its push. The job's outcome is audited by the worker after this;
    /// a chain that refuses the entry is told (logged), and the outcome's own entry is refused too.
    private func audit(_ publication: PatchPublication, digest: String, approver: String?, connection: WorkerConnection) {
        var details = ["job": String(job.id), "patch": digest, "approver": approver ?? ""]
        details["branch"] = publication.branch
        details["commit"] = publication.commit
        details["pullRequest"] = publication.pullRequest
        details["error"] = publication.error
        do {
            let entry = AuditEntry(
                event: publication.error == nil ? "fleet.patch.published" : "fleet.patch.publish-failed", actor: options.name,
                inputs: ["patch": digest], details: details)
            try connection.with { try FleetAudit(queue: $0, state: options.audit, chain: options.name).append(entry) }
        } catch { onAuditError(error) }
    }

    /// The last lines of the run's standard error (at most `JobAttempt.logLimit` bytes), redacted:
    /// the child's output is a repository's and a tool's, hostile, so it is stored bounded.
    static func logTail(_ path: String) -> String {
        guard let data = try? BoundedFile.read(path, limit: 64 << 20, followLinks: false) else { return "" }
        let bytes = data.suffix(JobAttempt.logLimit)
        var text = String(decoding: bytes, as: UTF8.self)
        if bytes.count < data.count, let newline = text.firstIndex(of: "\n") { text = String(text[text.index(after: newline)...]) }
        return Redactor.process.redact(text)
    }

    private static func text(_ path: String) -> String? {
        (try? BoundedFile.read(path, limit: 16 << 20, followLinks: false)).map { String(decoding: $0, as: UTF8.self) }
    }

    static func location(_ location: Location) -> String {
        if let file = location.file { return location.startLine.map { "\(file):\($0)" } ?? file }
        return [location.method, location.url, location.parameter].compactMap { $0 }.joined(separator: " ")
    }
}

/// What a heal job leaves: its exit status and, when it verified a fix, the patch and the PR text.
public struct HealRecord: Sendable, Hashable, Codable {
    /// `sentinel heal`'s status: 0 a verified candidate, 1 none.
    public var exitStatus: Int32
    /// The candidate's patch.
    public var patch: String?
    /// The actor that proposed it (`logic-repair`, `rule-fix`, `llm`...).
    public var actor: String?
    /// What it changes, in the heal's words ("remembered fix #N: ..." when memory replayed it).
    public var description: String?
    /// The heal's evidence.json: the signal, the baseline, every verification.
    public var evidence: String?
    /// True when another job already proposed the same change (it is not proposed again).
    public var duplicate = false
    /// With `--await-approval`: how the wait ended.
    public var approval: ApprovalOutcome?
    /// The reason given with the decision; for a wait the worker ended, why it ended.
    public var approvalReason: String?
    /// The SHA-256 of `patch`, as recorded in the database before any wait: what a decision names.
    public var patchDigest: String?
    /// Who decided, as the database recorded them (`session_user`, or the account on SQLite).
    public var approver: String?
    /// What the approval published: the branch, the commit and the pull request, or why not.
    public var publication: PatchPublication?

    /// A record; see the properties.
    public init(exitStatus: Int32, patch: String? = nil) {
        self.exitStatus = exitStatus
        self.patch = patch
    }

    /// The record as stored.
    public func encoded() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes, .prettyPrinted]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
