import ArgumentParser
import CLICore
import Fleet
import Store
import Support

/// `sentinel fleet retry JOB...`: dead letters (and failed or cancelled jobs) back to the queue.
struct FleetRetryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "retry", abstract: "Queue dead, failed or cancelled jobs again, their attempts reset; each is audited.",
        discussion: """
            A job whose unique key a queued or running job holds stays where it is. --all --state dead (or failed, \
            cancelled) retries every job in that state and needs --yes.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @Argument(help: "The job ids.") var jobs: [JobID] = []
    @Flag(help: "Every job in --state (needs --yes).") var all = false
    @Option(help: "With --all: dead, failed or cancelled.") var state: JobState?
    @Flag(help: "Confirm --all.") var yes = false

    func validate() throws {
        try FleetBulkSelection.validate(jobs: jobs, all: all, state: state, yes: yes, allowed: [.dead, .failed, .cancelled])
    }

    func run() throws {
        try FleetBulkSelection.each(jobs: jobs, all: all, state: state, database: database, audit: audit) { id, queue, operatorAudit in
            let outcome = try operatorAudit.recording({ try queue.requeue(id, audit: $0) }) { (outcome: RequeueOutcome) in
                guard case .requeued(let was) = outcome else { return nil }
                return (FleetAudit.requeuedEvent, ["job": String(id), "was": was.rawValue])
            }
            switch outcome {
            case .requeued(let was):
                Console.write(1, "job \(id): queued again (was \(was.rawValue))\n")
                return nil
            case .notFound: return "no such job"
            case .refused(let state): return "\(state.rawValue); only dead, failed or cancelled jobs are retried"
            case .duplicate(let holder): return "job \(holder) holds its unique key; not queued again"
            }
        }
    }
}

/// The jobs `fleet retry` and `fleet delete` act on: ids, or `--all --state S --yes`.
enum FleetBulkSelection {
    static func validate(jobs: [JobID], all: Bool, state: JobState?, yes: Bool, allowed: [JobState]) throws {
        if all {
            guard jobs.isEmpty else { throw ValidationError("--all: give job ids or --all, not both") }
            guard let state else { throw ValidationError("--all: needs --state") }
            guard allowed.contains(state) else {
                throw ValidationError("--state: \(state.rawValue) is not one of \(allowed.map(\.rawValue).joined(separator: ", "))")
            }
            guard yes else { throw ValidationError("--all: every \(state.rawValue) job; confirm with --yes") }
        } else {
            guard !jobs.isEmpty else { throw ValidationError("give job ids, or --all --state STATE --yes") }
            guard state == nil else { throw ValidationError("--state: only with --all") }
        }
    }

    static func ids(jobs: [JobID], all: Bool, state: JobState?, queue: JobQueue) throws -> [Int64] {
        guard all, let state else { return jobs.map(\.value) }
        return try queue.jobIDs(in: state)
    }

    /// Runs `act` on each selected job, in the operator's audit chain; `act` prints what it did and
    /// returns nil, or returns why the job was refused (printed as `sentinel: job N: WHY`). Exits 2
    /// when any was refused, after the rest were done.
    static func each(
        jobs: [JobID], all: Bool, state: JobState?, database: FleetDatabaseOptions, audit: FleetAuditOptions,
        _ act: (_ id: Int64, _ queue: JobQueue, _ operatorAudit: FleetOperatorAudit) throws -> String?
    ) throws {
        let queue = try database.open()
        let ids = try ids(jobs: jobs, all: all, state: state, queue: queue)
        let operatorAudit = try FleetOperatorAudit(queue: queue, options: audit)
        var refused = 0
        for id in ids {
            guard let why = try act(id, queue, operatorAudit) else { continue }
            refused += 1
            Console.error("sentinel: job \(id): \(why)")
        }
        if all && ids.isEmpty { Console.write(1, "no \(state?.rawValue ?? "") jobs\n") }
        if refused > 0 { throw ExitCode(2) }
    }
}
