import ArgumentParser
import Audit
import Foundation
import Store
import Support

/// `sentinel audit`: the tamper-evident log of what Sentinel decided and did.
struct AuditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit", abstract: "Check the tamper-evident audit log.", subcommands: [AuditVerifyCommand.self])
}

struct AuditVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check the audit log's hash chain and name the first broken line.",
        discussion: "Exit status: 0 intact; 1 the chain is broken (edited, deleted, reordered or truncated lines); 2 no log.")

    @Option(help: ArgumentHelp("The log (default: $SENTINEL_HOME/audit.jsonl).", valueName: "file"))
    var log: String?

    func run() throws {
        let path = log ?? StateDirectory.current.file("audit.jsonl")
        let result = try AuditVerifier.verify(path: path)
        if let broken = result.broken {
            Console.out("\(path):\(broken.line): \(broken.reason)")
            Console.out("audit log broken at line \(broken.line) (\(result.validLines) lines before it chain correctly)")
            throw ExitCode(1)
        }
        Console.out("audit log intact: \(result.validLines) entries (\(path))")
    }
}
