import ArgumentParser
import Audit
import CLICore
import Digest
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
        discussion: """
            Checks the chain, then that the log ends at the head anchored beside it (audit.jsonl.head) and, with \
            --expect-head, that it still holds a head you recorded elsewhere (the head line this prints). \
            Exit status: 0 intact; 1 broken (edited, deleted, reordered, truncated or rewritten lines); 2 no log.
            """)

    @Option(help: ArgumentHelp("The log (default: audit.jsonl in $SENTINEL_HOME, else in $XDG_STATE_HOME/sentinel).", valueName: "file"))
    var log: String?

    @Option(
        name: .customLong("expect-head"),
        help: ArgumentHelp("A head recorded earlier (SEQ:SHA256) the log must still hold.", valueName: "head"))
    var expectHead: AuditHead?

    func run() throws {
        let path = try log ?? StateLocation.current().file("audit.jsonl")
        let result = try AuditVerifier.verify(path: path, expecting: expectHead)
        if let broken = result.broken {
            Console.out("\(path):\(broken.line): \(broken.reason)")
            Console.out("audit log broken at line \(broken.line) (\(result.validLines) lines before it chain correctly)")
            throw ExitCode(1)
        }
        Console.out("audit log intact: \(result.validLines) entries (\(path))")
        if let head = result.head { Console.out("head: \(head)") }
        if !result.anchored && result.validLines > 0 {
            Console.out(
                "note: no anchor (\(path)\(AuditHead.anchorSuffix)): truncation and rewrites are not detectable until the next append")
        }
    }
}
