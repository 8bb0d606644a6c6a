import ArgumentParser
import CLICore
import Foundation
import Store
import Support

/// `sentinel fleet jobs`: jobs newest first, filtered, a page at a time, with why the failed and
/// dead ones ended (their failure class).
struct FleetJobsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jobs", abstract: "Jobs, newest first, filtered and paged (dead letters with --state dead).",
        discussion: """
            Filters combine: --repository as submitted (a directory's real path, a URL), --kind and --state repeatable, \
            --since a duration back from now (2h, 7d) or an ISO 8601 time (2026-11-28T09:00:00Z). When more jobs match \
            than --limit, the last line (text) or "next" (json) is the cursor: pass it to --after for the next page.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @Option(help: ArgumentHelp("Only jobs about this repository or DAST target, as submitted.", valueName: "repository"))
    var repository: String?
    @Option(help: "Only jobs of this kind: scan, heal or dast (repeatable).") var kind: [JobKind] = []
    @Option(help: "Only jobs in this state: queued, running, succeeded, failed, dead or cancelled (repeatable).")
    var state: [JobState] = []
    @Option(help: ArgumentHelp("Only jobs submitted since then: a duration ago (2h, 7d) or an ISO 8601 time.", valueName: "since"))
    var since: SinceArgument?
    @Option(help: ArgumentHelp("The page after this job id (the previous page's cursor).", valueName: "id")) var after: JobID?
    @Option(help: "At most this many (1 to 1000).") var limit = 50
    @Option(help: "Output format: text or json.") var format: FleetListFormat = .text

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit: must be 1 to 1000") }
    }

    func run() throws {
        var filter = JobFilter()
        filter.repository = repository
        filter.kinds = kind
        filter.states = state
        filter.since = since?.time()
        filter.after = after?.value
        filter.limit = limit
        let page = try database.open().jobs(matching: filter)
        for row in page.unreadable {
            Console.error("sentinel: warning: fleet_jobs row \(DisplayText.escaped(row.id)): \(DisplayText.escaped(row.reason)); not shown")
        }
        switch format {
        case .json: Console.write(1, try FleetJSON.encode(JobPageSummary(jobs: page.jobs.map(JobSummary.init), next: page.next)) + "\n")
        case .text:
            for job in page.jobs {
                // A row is anyone's who may submit: nothing in it drives the terminal.
                let error = job.lastError.map { "  " + DisplayText.escaped(Redactor.process.redact($0)) } ?? ""
                Console.write(
                    1,
                    "\(job.id)  \(job.request.kind.rawValue)  \(job.state.rawValue)  \(job.attempts)/\(job.request.maxAttempts)  \(DisplayText.escaped(job.request.repository))\(error)\n"
                )
            }
            if let next = page.next { Console.write(1, "next: --after \(next)\n") }
        }
    }
}

/// A page as `fleet jobs --format json` prints it.
struct JobPageSummary: Encodable {
    var jobs: [JobSummary]
    /// The cursor of the next page, absent on the last.
    var next: Int64?
}

extension JobKind: ExpressibleByArgument {}

/// `--since`: a duration back from now, or an ISO 8601 time (a date alone is its midnight UTC).
struct SinceArgument: ExpressibleByArgument {
    private let ago: Double?
    private let at: Double?

    init?(argument: String) {
        guard argument.utf8.count <= 64 else { return nil }
        if let seconds = Quantity.seconds(argument), seconds > 0 {
            (ago, at) = (seconds, nil)
            return
        }
        let text = argument.count == 10 ? argument + "T00:00:00Z" : argument
        guard let date = try? Date.ISO8601FormatStyle().parse(text) else { return nil }
        (ago, at) = (nil, date.timeIntervalSince1970)
    }

    /// The time meant, in seconds since 1970 (a duration counted back from this machine's clock).
    func time() -> Double { at ?? Date().timeIntervalSince1970 - (ago ?? 0) }
}
