import ArgumentParser
import Audit
import CLICore
import Fleet
import Foundation
import Store
import Support

/// `sentinel fleet approve JOB --patch DIGEST`: the decision a heal job's verified fix waits for,
/// bound to the patch that was shown (its digest) and to the database's identity of the approver.
struct FleetApproveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve", abstract: "Approve the verified patch a heal job (--await-approval) holds; its worker wakes at once.",
        discussion: """
            --patch names the patch by its SHA-256 (or a prefix of at least 12 hex digits), as sentinel fleet show JOB \
            prints it: a patch replaced after it was shown is not approved. The approver recorded is the database's: \
            PostgreSQL's session user (the login role), or on SQLite this process's operating-system account, never \
            $USER. Exit status: 0 recorded; 2 no such heal job, no patch yet, not awaiting a decision, another patch, \
            or already decided.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The heal job's id.") var job: JobID
    @Option(help: ArgumentHelp("The digest of the patch approved (sentinel fleet show JOB prints it).", valueName: "digest"))
    var patch: String
    @Option(help: "Why (recorded with the decision).") var reason = ""

    @OptionGroup var audit: FleetAuditOptions

    func run() throws { try FleetDecision.record(job, patch: patch, approved: true, reason: reason, database: database, audit: audit) }
}

/// `sentinel fleet deny JOB --reason TEXT`.
struct FleetDenyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deny", abstract: "Deny the verified patch a heal job (--await-approval) holds; its worker wakes at once.",
        discussion: """
            Without --patch, the patch recorded now is denied. Exit status: 0 recorded; 2 no such heal job, no patch \
            yet, not awaiting a decision, another patch, or already decided.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The heal job's id.") var job: JobID
    @Option(help: ArgumentHelp("The digest of the patch denied (default: the one recorded).", valueName: "digest"))
    var patch: String?
    @Option(help: "Why (recorded with the decision).") var reason: String

    @OptionGroup var audit: FleetAuditOptions

    func run() throws { try FleetDecision.record(job, patch: patch, approved: false, reason: reason, database: database, audit: audit) }
}

enum FleetDecision {
    static func record(
        _ job: JobID, patch: String?, approved: Bool, reason: String, database: FleetDatabaseOptions, audit options: FleetAuditOptions
    ) throws {
        let queue = try database.open()
        // A decision the chain could not record is not made: a refusal comes before it.
        let audit = try options.operatorChain(queue)
        let decision = try queue.decide(job.value, digest: patch, approved: approved, reason: reason)
        try audit.append(
            AuditEntry(
                event: approved ? "fleet.approval" : "fleet.denial", actor: decision.approver,
                inputs: ["patch": decision.digest],
                details: ["job": String(job.value), "patch": decision.digest, "approver": decision.approver, "reason": reason]))
        Console.write(
            1,
            "job \(job.value): patch \(decision.digest.prefix(16)) \(approved ? "approved" : "denied") by \(DisplayText.escaped(decision.approver))\n"
        )
    }
}
