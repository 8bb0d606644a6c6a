import ArgumentParser
import Audit
import CLICore
import Fleet
import Foundation
import Store
import Support

/// `sentinel fleet status`: jobs per state.
struct FleetStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "How many jobs are in each state.")
    @OptionGroup var database: FleetDatabaseOptions
    @Option(help: "Output format: text or json.") var format: FleetListFormat = .text

    func run() throws {
        let counts = try database.open().counts()
        switch format {
        case .json: Console.write(1, try FleetJSON.encode(counts) + "\n")
        case .text:
            Console.write(
                1,
                "queued \(counts.queued)  running \(counts.running)  succeeded \(counts.succeeded)  failed \(counts.failed)  dead \(counts.dead)  cancelled \(counts.cancelled)\n"
            )
        }
    }
}

/// `sentinel fleet jobs`: the latest jobs, with why the failed and dead ones ended.
struct FleetJobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "The latest jobs, newest first (dead letters with --state dead).")
    @OptionGroup var database: FleetDatabaseOptions
    @Option(help: "Only jobs in this state: queued, running, succeeded, failed, dead or cancelled.") var state: JobState?
    @Option(help: "At most this many.") var limit = 50
    @Option(help: "Output format: text or json.") var format: FleetListFormat = .text

    func run() throws {
        let listing = try database.open().listing(state: state, limit: max(1, limit))
        let jobs = listing.jobs
        for row in listing.unreadable {
            Console.error("sentinel: warning: fleet_jobs row \(DisplayText.escaped(row.id)): \(DisplayText.escaped(row.reason)); not shown")
        }
        switch format {
        case .json: Console.write(1, try FleetJSON.encode(jobs.map(JobSummary.init)) + "\n")
        case .text:
            for job in jobs {
                // A row is anyone's who may submit: nothing in it drives the terminal.
                let error = job.lastError.map { "  " + DisplayText.escaped(Redactor.process.redact($0)) } ?? ""
                Console.write(
                    1,
                    "\(job.id)  \(job.request.kind.rawValue)  \(job.state.rawValue)  \(job.attempts)/\(job.request.maxAttempts)  \(DisplayText.escaped(job.request.repository))\(error)\n"
                )
            }
        }
    }
}

/// `sentinel fleet cancel JOB`.
struct FleetCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a job: a queued one at once, a running one at its worker's next lease renewal.")
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The job id.") var job: JobID

    func run() throws {
        guard let state = try database.open().cancel(job.value) else {
            throw SentinelError(.invalidInput, "job \(job.value): no such job")
        }
        switch state {
        case .queued: Console.write(1, "job \(job.value): cancelled\n")
        case .running: Console.write(1, "job \(job.value): running; its worker stops it within a lease renewal\n")
        case .succeeded, .failed, .dead, .cancelled: Console.write(1, "job \(job.value): already \(state.rawValue)\n")
        }
    }
}

/// `--format text|json` of the fleet's listings.
enum FleetListFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

extension JobState: ExpressibleByArgument {}

/// A job as `fleet jobs --format json` prints it.
struct JobSummary: Encodable {
    var id: Int64
    var kind: String
    var state: String
    var repository: String
    var branch: String
    var priority: Int
    var attempts: Int
    var maxAttempts: Int
    var leaseExpiries: Int
    var lastError: String?
    var worker: String?

    init(_ job: Job) {
        id = job.id
        kind = job.request.kind.rawValue
        state = job.state.rawValue
        repository = job.request.repository
        branch = job.request.branch
        priority = job.request.priority
        attempts = job.attempts
        maxAttempts = job.request.maxAttempts
        leaseExpiries = job.leaseExpiries
        lastError = job.lastError.map { Redactor.process.redact($0) }
        worker = job.lease?.owner
    }
}

/// Pretty, sorted JSON with a trailing newline left to the caller.
enum FleetJSON {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
