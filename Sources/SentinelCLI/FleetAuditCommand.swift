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

    /// The key and this machine's head files; the state directory's key is made when missing and
    /// `createKey`. `headFileLag`: see `FleetAuditState` (a worker's; a command's are written at once).
    func open(createKey: Bool = true, headFileLag: Double = 0) throws -> FleetAuditState {
        try FleetAuditState.open(
            stateDirectory: StateLocation.current().path, keyFile: keyFile, createKey: createKey, headFileLag: headFileLag)
    }

    /// The chain of the operator running this command (`fleet approve`, `deny`, `cancel`, `retry`,
    /// `delete`, `prune`), refused before anything is written (exit 2) unless this machine holds
    /// the fleet's key: a key is made here only for a fleet with no audit entry yet, and once the
    /// fleet has entries, one linked with another key than this machine's means this one is not
    /// the fleet's (an operator chain linked with a key of its own broke `fleet audit verify` and
    /// stopped every worker started after it). Then its own chain's tail is checked, as a worker's is.
    /// `person`: the operator (`FleetOperator.current`), when the caller has read it already.
    func operatorChain(_ queue: JobQueue, person: String? = nil) throws -> FleetAudit {
        let lastLines = try queue.lastAuditLines()
        let audit = FleetAudit(
            queue: queue, state: try open(createKey: lastLines.isEmpty),
            chain: FleetOperator.chain(of: try person ?? FleetOperator.current(queue)))
        try audit.checkKey(lastLines: lastLines)
        try audit.checkTail()
        return audit
    }
}

/// `sentinel fleet audit verify`: the fleet's audit chain in its database.
struct FleetAuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the fleet's audit chain.", subcommands: [FleetAuditVerifyCommand.self])
}

struct FleetAuditVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify", abstract: "Check the fleet's audit chains in the database and name the first broken entry of each.",
        discussion: """
            Checks every writer's chain: each entry's link (HMAC-SHA-256 under the fleet's audit key, which the \
            database never holds), numbering and chain name, that the chain ends at the head stored with it, and \
            that it still holds this machine's head files for the database and each --head given (copied from other \
            machines). Then checks that every job in a final state has exactly one outcome entry and every lease \
            expiry one entry. Exit status: 0 intact; 1 broken (edited, deleted, reordered, moved, truncated, \
            re-chained or forged entries, or an outcome without exactly one entry); 2 no key.
            """)
    @OptionGroup var database: FleetDatabaseOptions
    @OptionGroup var audit: FleetAuditOptions
    @Option(
        name: .customLong("head"),
        help: ArgumentHelp("Another machine's head file a chain must still hold (repeatable).", valueName: "file"))
    var heads: [String] = []

    func run() throws {
        let queue = try database.open()
        let state = try audit.open(createKey: false)
        let fleetAudit = FleetAudit(queue: queue, state: state)
        let given = try heads.map { path in
            AuditVerifier.Checkpoint(head: try FleetAuditState.readHead(path: path), name: "the head file \(path)")
        }
        let verification = try fleetAudit.verifyAll(heads: given)
        var entries = 0
        for chain in verification.chains {
            let result = chain.result
            entries += result.validLines
            if let broken = result.broken {
                Console.out("\(queue.location): chain \(chain.name): entry \(broken.line): \(broken.reason)")
                Console.out("chain \(chain.name): broken at entry \(broken.line) (\(result.validLines) entries before it chain correctly)")
                if let other = broken.otherKey {
                    let which =
                        broken.otherKeyLines == 1
                        ? "entry \(broken.line) is"
                        : "\(broken.otherKeyLines) entries from \(broken.line) to \(broken.otherKeyLastLine) are"
                    Console.out(
                        "  \(which) linked with key id \(other), not the fleet's (id \(state.key.id)): written on a machine holding another fleet-audit.key. To repair: check them on that machine (sentinel fleet audit verify --audit-key-file ITS-KEY); the job states they record stand as they are; give that machine the fleet's key (--audit-key-file) so it writes no more of them"
                    )
                }
                continue
            }
            Console.out("chain \(chain.name): intact, \(result.validLines) entries\(result.head.map { ", head \($0)" } ?? "")")
            for checkpoint in chain.checkpoints {
                Console.out("  checked against \(checkpoint.name): entry \(checkpoint.head.sequence)")
            }
            if result.unkeyedLines > 0 {
                Console.out(
                    "  note: entries 1-\(result.unkeyedLines) were written before the chain was keyed; entry \(result.unkeyedLines + 1) vouches for them"
                )
            }
        }
        for problem in verification.problems { Console.out("\(queue.location): \(problem)") }
        let outcomes =
            "\(verification.checkedJobs) job\(verification.checkedJobs == 1 ? "" : "s") after job \(verification.lastUncheckedJob), \(verification.checkedExpiries) lease expir\(verification.checkedExpiries == 1 ? "y" : "ies")"
        guard verification.intact else {
            let broken = verification.chains.filter { !$0.result.intact }.count
            Console.out(
                "fleet audit broken: \(broken) of \(verification.chains.count) chains broken, \(verification.problems.count) other problem\(verification.problems.count == 1 ? "" : "s") (outcomes checked: \(outcomes))"
            )
            throw ExitCode(1)
        }
        Console.out(
            "fleet audit intact: \(verification.chains.count) chain\(verification.chains.count == 1 ? "" : "s"), \(entries) entries; every outcome has one entry (\(outcomes)) (\(queue.location))"
        )
        if verification.chains.contains(where: { $0.checkpoints.isEmpty && $0.result.validLines > 0 }) {
            Console.out("note: a chain without a head file here shows a deleted tail only against another machine's (--head)")
        }
    }
}
