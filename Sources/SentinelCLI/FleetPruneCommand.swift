import ArgumentParser
import CLICore
import Store
import Support

/// `sentinel fleet prune --older-than DURATION`: the tables stop growing for ever.
struct FleetPruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune", abstract: "Delete finished jobs older than a duration, with their results, findings and proposals.",
        discussion: """
            Only succeeded, failed, dead and cancelled jobs that ended longer ago than --older-than are deleted, in \
            batches of --batch jobs per transaction; queued and running jobs never are. The audit chain is never \
            pruned: every entry stays and `fleet audit verify` still passes. The prune itself is audited.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @Option(
        name: .customLong("older-than"),
        help: ArgumentHelp("Jobs that ended longer ago than this (e.g. 30d, 12h).", valueName: "duration"))
    var olderThan: DurationArgument
    @Option(help: "Jobs deleted per transaction (1 to 10000).") var batch = 500
    @Flag(name: .customLong("dry-run"), help: "Count what would be deleted; delete nothing.") var dryRun = false

    func validate() throws {
        guard (1...10_000).contains(batch) else { throw ValidationError("--batch: must be 1 to 10000") }
    }

    func run() throws {
        let queue = try database.open()
        if dryRun {
            let count = try queue.prune(olderThan: olderThan.seconds, dryRun: true)
            Console.write(1, "\(count) finished job\(count == 1 ? "" : "s") older than \(olderThan.text) would be deleted\n")
            return
        }
        let operatorAudit = try FleetOperatorAudit(queue: queue, options: audit)
        let count = try queue.prune(olderThan: olderThan.seconds, batch: batch)
        try operatorAudit.record("fleet.pruned", ["jobs": String(count), "older-than": olderThan.text])
        Console.write(1, "\(count) finished job\(count == 1 ? "" : "s") older than \(olderThan.text) deleted\n")
    }
}
