import ArgumentParser
import Audit
import CLICore
import Fleet
import Foundation
import Store
import Support

/// `--audit-key-file`, shared by every fleet command that writes or checks the audit chain.
struct FleetAuditOptions: ParsableArguments {
    @Option(
        name: .customLong("audit-key-file"),
        help: ArgumentHelp(
            "The fleet's audit key (hex, mode 600; default: fleet-audit.key in the state directory, which a worker makes on first use).",
            valueName: "file"))
    var keyFile: String?

    /// The key and this machine's head files; the state directory's key is made when missing and `createKey`.
    func open(createKey: Bool = true) throws -> FleetAuditState {
        try FleetAuditState.open(stateDirectory: StateLocation.current().path, keyFile: keyFile, createKey: createKey)
    }
}

/// `sentinel fleet audit verify`: the fleet's audit chain in its database.
struct FleetAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the fleet's audit chain.", subcommands: [FleetAuditVerifyCommand.self])
}

struct FleetAuditVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the fleet's audit chain in the database and name the first broken entry.",
        discussion: """
            Checks each entry's link (HMAC-SHA-256 under the fleet's audit key, which the database never holds), that \
            the chain ends at the head stored with it, and that it still holds this machine's head file for the \
            database and each --head given (copied from other workers). Exit status: 0 intact; 1 broken (edited, \
            deleted, reordered, truncated, re-chained or forged entries); 2 no key.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @Option(
        name: .customLong("head"),
        help: ArgumentHelp("Another machine's head file the chain must still hold (repeatable).", valueName: "file"))
    var heads: [String] = []

    func run() throws {
        let queue = try database.open()
        let fleetAudit = FleetAudit(queue: queue, state: try audit.open(createKey: false))
        let given = try heads.map { path in
            AuditVerifier.Checkpoint(head: try FleetAuditState.readHead(path: path), name: "the head file \(path)")
        }
        let local = try fleetAudit.localHeads()
        let result = try fleetAudit.verify(heads: local + given)
        if let broken = result.broken {
            Console.out("\(queue.location): entry \(broken.line): \(broken.reason)")
            Console.out("fleet audit chain broken at entry \(broken.line) (\(result.validLines) entries before it chain correctly)")
            throw ExitCode(1)
        }
        Console.out("fleet audit chain intact: \(result.validLines) entries (\(queue.location))")
        if let head = result.head { Console.out("head: \(head)") }
        for checkpoint in local + given { Console.out("checked against \(checkpoint.name): entry \(checkpoint.head.sequence)") }
        if local.isEmpty && given.isEmpty && result.validLines > 0 {
            Console.out("note: no head file for this database here: a deleted tail shows only against another machine's (--head)")
        }
        if result.unkeyedLines > 0 {
            Console.out(
                "note: entries 1-\(result.unkeyedLines) were written before the chain was keyed; entry \(result.unkeyedLines + 1) vouches for them"
            )
        }
    }
}
