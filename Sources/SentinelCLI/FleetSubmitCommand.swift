import ArgumentParser
import CLICore
import Digest
import Fleet
import Foundation
import Heal
import Signals
import Store
import Support

/// `sentinel fleet submit scan|heal|dast|noop`: enqueue a job and print its id.
struct FleetSubmitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "submit", abstract: "Queue a scan, heal, DAST or no-op job; prints the job id.",
        subcommands: [FleetSubmitScanCommand.self, FleetSubmitHealCommand.self, FleetSubmitDastCommand.self, FleetSubmitNoopCommand.self])
}

/// Queue options every submission takes.
struct FleetQueueOptions: ParsableArguments {
    @OptionGroup var database: FleetDatabaseOptions
    @Option(help: "Higher runs first.") var priority = 0
    @Option(name: .customLong("max-attempts"), help: "Attempts before the job is dead-lettered.")
    var maxAttempts = 5

    func validate() throws {
        guard (1...100).contains(maxAttempts) else { throw SentinelError(.invalidInput, "--max-attempts: must be 1 to 100") }
    }

    /// Submits `spec` about `repository` and prints the id: a new job's, or the one that already
    /// holds the unique key (saying so on standard error; the exit status is 0 either way).
    func submit(
        _ spec: FleetJobSpec, repository: String, branch: String, exclusiveKey: String? = nil, unique: FleetUniqueOptions? = nil
    ) throws {
        let request = JobRequest(
            kind: spec.kind, spec: try spec.encoded(), repository: repository, branch: branch, priority: priority,
            maxAttempts: maxAttempts, exclusiveKey: exclusiveKey)
        let submission = try database.open().submit(request, unique: unique?.uniqueness(for: request))
        Console.write(1, "\(submission.id)\n")
        if submission.existing {
            Console.error("sentinel: job \(submission.id) already holds this unique key; not submitted again")
        }
    }
}

/// Options passed through to the worker's `sentinel scan` or `heal`.
enum FleetPassThrough {
    /// Checks `arguments` as `sentinel COMMAND` would parse them, refusing what a job may not carry.
    @discardableResult
    static func check<Command: ParsableCommand>(
        _ arguments: [String], kind: JobKind, as command: Command.Type, around: [String]
    ) throws -> Command {
        try FleetJobSpec.checkArguments(arguments, kind: kind)
        let parsed: Command
        do {
            parsed = try Command.parse(around + arguments)
        } catch {
            throw SentinelError(.invalidInput, Command.message(for: error))
        }
        if let scan = parsed as? ScanCommand, scan.paths.count != 1 {
            throw SentinelError(
                .invalidInput,
                "a fleet job scans exactly one directory, its repository: '\(scan.paths.dropFirst().joined(separator: " "))' is not an option"
            )
        }
        return parsed
    }

    /// `path` made absolute when it is a directory here; a URL as it is.
    static func repository(_ path: String) throws -> String {
        try FleetJobSpec.checkRepository(path)
        if path.contains("://") || path.hasPrefix("git@") {
            // Workers refuse the rest at once (`CloneHosts`): say so now, before it is queued.
            guard ["http://", "https://", "file://"].contains(where: path.lowercased().hasPrefix) else {
                throw SentinelError(
                    .invalidInput, "\(path): workers clone http(s) and file:// URLs only (ssh would run their ssh with their keys)")
            }
            return path
        }
        var isDirectory: ObjCBool = false
        guard let real = OutputPlacement.realPath(path), FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw SentinelError(.invalidInput, "\(path): no such directory") }
        return real
    }
}

struct FleetSubmitScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan", abstract: "Queue `sentinel scan` of a repository (a directory the workers see, or a git URL).")
    @Argument(help: "The repository: a directory on the workers' file system, or a git URL.") var path: String
    @Option(help: ArgumentHelp("Scan this revision (a clone is checked out).", valueName: "rev")) var rev: String?
    @Option(help: "The branch the findings history is kept for (default: --rev, else none).") var branch: String?
    @OptionGroup var queue: FleetQueueOptions
    @OptionGroup var unique: FleetUniqueOptions
    @Argument(parsing: .allUnrecognized, help: "Options for `sentinel scan` (its --format and --output are the worker's).")
    var scanOptions: [String] = []

    func run() throws {
        try FleetPassThrough.check(scanOptions, kind: .scan, as: ScanCommand.self, around: ["."])
        try FleetJobSpec.checkRevision(rev)
        let repository = try FleetPassThrough.repository(path)
        let spec = FleetJobSpec(kind: .scan, repository: repository, revision: rev, arguments: scanOptions)
        try queue.submit(spec, repository: repository, branch: branch ?? rev ?? "", unique: unique)
    }
}

struct FleetSubmitDastCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "dast", abstract: "Queue a web scan (`sentinel scan --dast URL`).")
    @Argument(help: "The web application's URL.") var url: String
    @OptionGroup var queue: FleetQueueOptions
    @OptionGroup var unique: FleetUniqueOptions
    @Argument(parsing: .allUnrecognized, help: "Options for `sentinel scan --dast` (--active, --openapi...).")
    var scanOptions: [String] = []

    func run() throws {
        try FleetPassThrough.check(scanOptions, kind: .dast, as: ScanCommand.self, around: [".", "--dast", url])
        let spec = FleetJobSpec(kind: .dast, arguments: scanOptions, target: url)
        try queue.submit(spec, repository: url, branch: "", unique: unique)
    }
}

struct FleetSubmitHealCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "heal",
        abstract: "Queue `sentinel heal`; one heal per signal runs at a time fleet-wide, and a change is proposed once.")
    @Option(help: ArgumentHelp("The error signal (its content is queued with the job).", valueName: "file")) var signal: String
    @Option(help: ArgumentHelp("The repository: a directory on the workers' file system, or a git URL.", valueName: "dir|url"))
    var repo: String
    @Option(help: "The command that must pass for a fix to count.") var verify: String
    @Option(help: ArgumentHelp("Heal this revision (a clone is checked out).", valueName: "rev")) var rev: String?
    @Option(
        name: .customLong("await-approval"),
        help: ArgumentHelp(
            "Hold a verified fix this long for `fleet approve` or `fleet deny` (e.g. 4h); the worker's --job-timeout may end it sooner.",
            valueName: "duration"))
    var awaitApproval: DurationArgument?
    @OptionGroup var queue: FleetQueueOptions
    @OptionGroup var unique: FleetUniqueOptions
    @Argument(parsing: .allUnrecognized, help: "Options for `sentinel heal` (--max-minutes, --jobs, --profile...).")
    var healOptions: [String] = []

    func run() throws {
        try FleetPassThrough.check(
            healOptions, kind: .heal, as: HealCommand.self, around: ["--signal", "-", "--repo", ".", "--verify", verify])
        try FleetJobSpec.checkRevision(rev)
        let data = try OptionValue.naming("--signal") { try BoundedFile.read(signal, limit: 8 << 20) }
        let signals = try OptionValue.naming("--signal") { try SignalReader.read(data, name: signal) }
        let repository = try FleetPassThrough.repository(repo)
        // The lock key: the same problem in the same repository, whichever file reported it.
        let key = repository + "\n" + signals.map(\.fingerprint).sorted().joined(separator: "\n")
        var spec = FleetJobSpec(
            kind: .heal, repository: repository, revision: rev, arguments: healOptions,
            signal: String(decoding: data, as: UTF8.self), verify: verify)
        spec.awaitApproval = awaitApproval?.seconds
        try queue.submit(spec, repository: repository, branch: rev ?? "", exclusiveKey: SHA256.hex(key), unique: unique)
    }
}
