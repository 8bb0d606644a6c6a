import ArgumentParser
import Autonomy
import CLICore
import Foundation
import Git
import Store
import Support

/// `sentinel proposals`: the approval queue that `heal --level proposer` fills.
struct ProposalsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "proposals", abstract: "List, show, approve or deny proposed changes.",
        subcommands: [
            ProposalsListCommand.self, ProposalsShowCommand.self, ProposalsApproveCommand.self, ProposalsDenyCommand.self,
        ])
}

struct ProposalsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "One line per proposal, newest first.")
    @Option(help: ArgumentHelp("Only proposals in this state: pending, applying, applied, denied or stale.", valueName: "state"))
    var status: ProposalStatus?
    @Option(help: "Output format.") var format: TextOrJSON = .text

    func run() throws {
        let wanted = status.map { Set([$0]) }
        let review = ProposalReview(state: try StateLocation.current(), environment: ProcessInfo.processInfo.environment)
        let proposals = try review.store().list(statuses: wanted)
        if format == .json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            Console.write(1, String(decoding: try encoder.encode(proposals), as: UTF8.self) + "\n")
            return
        }
        if proposals.isEmpty { Console.out("no proposals") }
        for proposal in proposals {
            Console.out(
                "\(proposal.id)  \(proposal.status.rawValue)  \(proposal.created)  \(DisplayText.escaped(proposal.branch))  \(DisplayText.escaped(proposal.title))"
            )
        }
    }
}

struct ProposalsShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "A proposal's state, PR text and patch.")
    @Argument(help: "The proposal id (any unique prefix of at least 4 characters).") var id: String

    func run() throws {
        let review = ProposalReview(state: try StateLocation.current(), environment: ProcessInfo.processInfo.environment)
        let proposal = try review.store().find(id)
        var lines = [
            "id: \(proposal.id)", "status: \(proposal.status.rawValue)", "repository: \(proposal.repository)",
            "branch: \(proposal.branch)", "action: \(proposal.action.rawValue)", "created: \(proposal.created)",
        ]
        if let decided = proposal.decided { lines.append("decided: \(decided)") }
        if let reason = proposal.reason { lines.append("reason: \(reason)") }
        if let commit = proposal.commit { lines.append("commit: \(commit)") }
        if let pull = proposal.pullRequest { lines.append("pull request: \(pull)") }
        lines.append("directory: \(proposal.directory)")
        // Fields a model, a server or a repository chose: one line each, driving no terminal.
        Console.out(lines.map { DisplayText.escaped($0) }.joined(separator: "\n") + "\n")
        // The pull request's text and the patch quote the healed repository (its comments, its
        // strings): shown as lines whose controls are visible (`\x1b]52;…`), never acted on by
        // the terminal of the operator who reviews them, nor by a CI runner reading the log.
        let body = try BoundedFile.read(proposal.directory + "/PR.md", limit: 16 << 20, followLinks: false)
        Console.text(DisplayText.multiline(String(decoding: body, as: UTF8.self)) + "\n")
        let patch = try BoundedFile.read(proposal.directory + "/patch.diff", limit: 64 << 20, followLinks: false)
        Console.text(DisplayText.multiline(String(decoding: patch, as: UTF8.self)))
    }
}

struct ProposalsApproveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve", abstract: "Commit a proposal on its branch (and open its pull request).",
        discussion: """
            The patch is committed on a new branch from the base branch's current tip; the working tree, the index \
            and HEAD are left alone. With a GitHub repository in the policy and its token set, the branch is pushed \
            and a pull request opened through the REST API. Exit status: 0 applied; 1 the patch no longer applies \
            (the proposal is marked stale) or GitHub refused (nothing is left half-done); 2 unknown or decided \
            proposal, uncommitted changes in the repository, or a proposal file changed since it was proposed.
            """)
    @Argument(help: "The proposal id (any unique prefix of at least 4 characters).") var id: String
    @Flag(name: .customLong("dry-run"), help: "Print the git steps and GitHub requests; change nothing.")
    var dryRun = false
    @Option(
        help: ArgumentHelp(
            "Your policy file, instead of the repository's (only yours may name the GitHub repository, API and token).",
            valueName: "file"))
    var policy: String?
    @Option(
        help: ArgumentHelp(
            "Who the commit says wrote the change, as 'Name <email>' (default: GIT_AUTHOR_NAME and GIT_AUTHOR_EMAIL when both are set, else git's user.name and user.email for the repository, else sentinel).",
            valueName: "identity"))
    var author: String?

    func run() throws {
        // A malformed identity is a usage error before anything runs.
        let identity = try OptionValue.author(author)
        if AnalysisSandbox.applies {
            do {
                throw ExitCode(try separatedApproval())
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("approving")
            }
        }
        try AnalysisSandbox.enterStartDirectory()
        var review = ProposalReview(
            state: try StateLocation.current(), environment: ProcessInfo.processInfo.environment,
            operatorPolicy: try policy.map { try AnalysisSandbox.loadOperatorPolicy($0) })
        // As heal's: else git's own identity for the proposal's repository.
        review.author =
            try identity
            ?? GitIdentity.configured(
                repository: review.store().find(id).repository, environment: ProcessInfo.processInfo.environment)
        if dryRun {
            // The plan quotes the proposal's title, commit message and file names.
            Console.text(DisplayText.multiline(try review.plan(id)))
            return
        }
        let applied = try review.approve(id)
        Console.out("committed \(applied.commit.prefix(12)) on branch \(applied.branch) (from \(applied.parent.prefix(12)))")
        if let pull = applied.pullRequest {
            // GitHub's answer is a server's: its URL and messages drive no terminal.
            Console.out("opened pull request #\(pull.number): \(DisplayText.escaped(pull.url))")
            for warning in pull.warnings { Console.error("warning: \(DisplayText.escaped(warning))") }
        }
        Console.out("look at it with: git switch \(applied.branch)")
    }
    /// Root's part (issue 53): the approval -- the repository's policy, git, the commit, GitHub --
    /// runs as the unprivileged analysis over the proposal's repository, with the state directory
    /// lent; root reads only which repository that is, from its queue.
    private func separatedApproval() throws -> Int32 {
        let state = try StateLocation.current()
        try state.create()
        let queued = try AutonomyStore(state: state).find(id)
        var analysis = AnalysisSandbox(
            arguments: Array(CommandLine.arguments.dropFirst()), repository: queued.repository,
            workingDirectory: FileManager.default.currentDirectoryPath)
        analysis.credentials = .passed
        analysis.writableRepository = !dryRun
        analysis.lendGitIdentity(option: author, repository: queued.repository)
        try analysis.lendState(state)
        try analysis.lendOperatorPolicy(policy)
        return try analysis.run()
    }
}

struct ProposalsDenyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deny", abstract: "Refuse a proposal, saying why.")
    @Argument(help: "The proposal id (any unique prefix of at least 4 characters).") var id: String
    @Option(help: ArgumentHelp("Why (recorded in the queue and the audit log).", valueName: "text")) var reason: String

    func run() throws {
        let review = ProposalReview(state: try StateLocation.current(), environment: ProcessInfo.processInfo.environment)
        let denied = try review.deny(id, reason: reason)
        Console.out("denied \(denied.id): \(DisplayText.escaped(denied.reason ?? reason))")
    }
}
