import ArgumentParser
import CLICore
import Fleet
import Foundation
import Store
import Support

/// `sentinel fleet show JOB`: everything the fleet holds about one job, so that a person deciding
/// on a heal sees the patch (and its digest) they approve.
struct FleetShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "One job: spec, state, attempts and their logs, result, and a heal's patch and approval.",
        discussion: """
            A heal job's patch is printed with its SHA-256: sentinel fleet approve JOB --patch DIGEST approves exactly \
            that patch. Everything shown comes from the database and the job's run, and is escaped (one field, one \
            line; the patch and the logs line by line). Exit status: 0 shown; 2 no such job.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The job id.") var job: JobID
    @Option(help: "Output format: text or json.") var format: FleetListFormat = .text

    func run() throws {
        let queue = try database.open()
        guard let stored = try queue.job(job.value) else { throw SentinelError(.invalidInput, "job \(job.value): no such job") }
        let shown = JobDetails(
            job: stored, submitter: try queue.submitter(of: job.value), result: try queue.result(job.value),
            attempts: try queue.attempts(of: job.value), patch: try queue.patch(of: job.value), decisions: try queue.decisions(job.value))
        switch format {
        case .json: Console.write(1, try FleetJSON.encode(shown) + "\n")
        case .text: Console.text(shown.text())
        }
    }
}

/// What `fleet show` prints, text or JSON: the job's row, its attempts, its result and its patch.
struct JobDetails: Encodable {
    var id: Int64
    var kind: String
    var state: String
    /// `awaiting approval`, `approved`, `denied`, `undecided` (the wait ended without a decision) or
    /// `not asked` (submitted without --await-approval) for a heal with a patch; nil otherwise.
    var approval: String?
    var repository: String
    var branch: String
    var spec: String
    var priority: Int
    var attempts: Int
    var maxAttempts: Int
    var leaseExpiries: Int
    var lastError: String?
    var worker: String?
    var submittedBy: String?
    var createdAt: Double
    var startedAt: Double?
    var finishedAt: Double?
    var result: ResultSummary?
    var attemptLog: [JobAttempt]
    var patch: JobPatch?
    var decisions: [PatchDecision]

    /// A result without its report: the status and, for a scan, how many findings.
    struct ResultSummary: Encodable {
        var exitStatus: Int32
        var findings: Int
    }

    init(job: Job, submitter: String?, result: JobResult?, attempts log: [JobAttempt], patch: JobPatch?, decisions: [PatchDecision]) {
        id = job.id
        kind = job.request.kind.rawValue
        state = job.state.rawValue
        repository = job.request.repository
        branch = job.request.branch
        // A spec holds what the submitter wrote (a signal, a command): redacted as logs are.
        spec = Redactor.process.redact(job.request.spec)
        priority = job.request.priority
        attempts = job.attempts
        maxAttempts = job.request.maxAttempts
        leaseExpiries = job.leaseExpiries
        lastError = job.lastError.map { Redactor.process.redact($0) }
        worker = job.lease?.owner
        submittedBy = submitter
        createdAt = job.createdAt
        startedAt = job.startedAt
        finishedAt = job.finishedAt
        self.result = result.map { ResultSummary(exitStatus: $0.exitStatus, findings: $0.findings.count) }
        attemptLog = log
        self.patch = patch
        self.decisions = decisions
        approval = patch.map { patch in
            if let decision = decisions.first(where: { $0.digest == patch.digest }) { return decision.approved ? "approved" : "denied" }
            if patch.awaiting && job.state == .running { return "awaiting approval" }
            // An unreadable spec is shown as stored; it asked for nothing this build can tell.
            let asked = (try? FleetJobSpec.decode(job.request.spec, job: job.id))?.awaitApproval != nil
            return asked ? "undecided" : "not asked"
        }
    }

    /// The text form: one field a line, then each attempt's log, the patch and the evidence.
    func text() -> String {
        var lines: [String] = []
        func field(_ name: String, _ value: String?) {
            if let value { lines.append("\(name): \(DisplayText.escaped(value))") }
        }
        lines.append("job \(id)  \(kind)  \(approval == "awaiting approval" ? "awaiting approval" : state)")
        field("state", state)
        field("repository", repository)
        field("branch", branch.isEmpty ? nil : branch)
        field("attempts", "\(attempts) of \(maxAttempts)" + (leaseExpiries > 0 ? " (\(leaseExpiries) lease expiries)" : ""))
        field("worker", worker)
        field("submitted", Self.time(createdAt) + (submittedBy.map { " by \($0)" } ?? ""))
        field("started", startedAt.map(Self.time))
        field("finished", finishedAt.map(Self.time))
        field("last error", lastError)
        field("spec", spec)
        field("result", result.map { "exit \($0.exitStatus)" + (kind == "heal" ? "" : ", \($0.findings) findings") })
        if let patch {
            field("patch", "sha256 \(patch.digest)")
            field("approval", approval)
            field("description", patch.description)
            field("actor", patch.actor)
            for decision in decisions {
                field(
                    "decision",
                    "\(decision.approved ? "approved" : "denied") \(decision.digest.prefix(16)) by \(decision.approver) at \(Self.time(decision.decidedAt))"
                        + (decision.reason.isEmpty ? "" : ": \(decision.reason)"))
            }
            if let publication = patch.publication {
                field("branch", publication.branch)
                field("commit", publication.commit)
                field("pull request", publication.pullRequest)
                field("publish error", publication.error)
            }
        }
        for attempt in attemptLog {
            lines.append(
                DisplayText.escaped(
                    "attempt \(attempt.attempt)  \(attempt.worker)  \(attempt.outcome)  \(Self.time(attempt.endedAt))"
                        + (attempt.error.map { "  \($0)" } ?? "")))
            for line in attempt.log.split(separator: "\n", omittingEmptySubsequences: false).drop(while: \.isEmpty) {
                lines.append("  | " + DisplayText.escaped(line))
            }
        }
        if let patch {
            lines.append("--- patch \(patch.digest)")
            lines += patch.patch.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.escaped($0) }
            if let evidence = patch.evidence {
                lines.append("--- evidence")
                lines += evidence.split(separator: "\n", omittingEmptySubsequences: false).map { DisplayText.escaped($0) }
            }
        }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Seconds since 1970 as UTC ISO 8601.
    static func time(_ seconds: Double) -> String {
        ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: seconds))
    }
}
