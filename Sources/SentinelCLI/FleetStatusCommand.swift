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

/// `sentinel fleet cancel JOB`.
struct FleetCancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel", abstract: "Cancel a job: a queued one at once, a running one at its worker's next lease renewal.")
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The job id.") var job: JobID
    @OptionGroup var audit: FleetAuditOptions

    func run() throws {
        let queue = try database.open()
        let person = try FleetOperator.current(queue)
        let chain = try audit.operatorChain(queue, person: person)
        // A queued job is cancelled with its outcome's entry in this operator's chain, or not at all.
        let cancelled = try chain.recording({ try queue.cancel(job.value, audit: $0) }) { (ended: JobOutcome) in
            AuditEntry(event: FleetAudit.outcomeEvent(ended.state), actor: person, details: ["job": String(ended.jobID)])
        }
        guard let state = cancelled else {
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
    var failureClass: String?
    var uniqueKey: String?
    var createdAt: Double
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
        failureClass = job.failureClass?.rawValue
        uniqueKey = job.uniqueKey
        createdAt = job.createdAt
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
