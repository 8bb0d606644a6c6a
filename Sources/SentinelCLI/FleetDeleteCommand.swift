import ArgumentParser
import CLICore
import Store
import Support

/// `sentinel fleet delete JOB...`: finished jobs removed with their results and findings.
struct FleetDeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete finished jobs with their results, findings and proposals; each is audited.",
        discussion: """
            Queued and running jobs are refused (cancel them first). The audit chain keeps every entry about a deleted \
            job. --all --state dead (or succeeded, failed, cancelled) deletes every job in that state and needs --yes.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @Argument(help: "The job ids.") var jobs: [JobID] = []
    @Flag(help: "Every job in --state (needs --yes).") var all = false
    @Option(help: "With --all: succeeded, failed, dead or cancelled.") var state: JobState?
    @Flag(help: "Confirm --all.") var yes = false

    func validate() throws {
        try FleetBulkSelection.validate(jobs: jobs, all: all, state: state, yes: yes, allowed: JobQueue.finishedStates)
    }

    func run() throws {
        try FleetBulkSelection.each(jobs: jobs, all: all, state: state, database: database, audit: audit) { id, queue, operatorAudit in
            let outcome = try operatorAudit.recording({ try queue.delete(id, audit: $0) }) { (outcome: DeleteOutcome) in
                guard case .deleted(let was) = outcome else { return nil }
                return ("fleet.job.deleted", ["job": String(id), "was": was.rawValue])
            }
            switch outcome {
            case .deleted(let was):
                Console.write(1, "job \(id): deleted (was \(was.rawValue))\n")
                return nil
            case .notFound: return "no such job"
            case .refused(let state): return "\(state.rawValue); only finished jobs are deleted (cancel it first)"
            }
        }
    }
}
