import ArgumentParser
import CLICore
import Fleet
import Foundation
import Store
import Support

/// `sentinel fleet schedule`: continuous scans.
struct FleetScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule", abstract: "Recurring scans: add, list, remove, and run the scheduler.",
        subcommands: [
            FleetScheduleAddCommand.self, FleetScheduleListCommand.self, FleetScheduleRemoveCommand.self, FleetScheduleRunCommand.self,
        ])
}

struct FleetScheduleAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Scan a repository every interval (replaces a schedule of the same name).")
    @Argument(help: "The schedule's name.") var name: String
    @Argument(help: "The repository: a directory on the workers' file system, or a git URL.") var path: String
    @Option(help: "How often (e.g. 30m, 6h, 1d).") var every: DurationArgument
    @Option(help: ArgumentHelp("Scan this revision (a clone is checked out).", valueName: "rev")) var rev: String?
    @OptionGroup var queue: FleetQueueOptions
    @Argument(parsing: .allUnrecognized, help: "Options for `sentinel scan`.") var scanOptions: [String] = []

    func run() throws {
        try FleetPassThrough.check(scanOptions, kind: .scan, as: ScanCommand.self, around: ["."])
        try FleetJobSpec.checkRevision(rev)
        let repository = try FleetPassThrough.repository(path)
        let spec = FleetJobSpec(kind: .scan, repository: repository, revision: rev, arguments: scanOptions)
        let request = JobRequest(
            kind: .scan, spec: try spec.encoded(), repository: repository, branch: rev ?? "", priority: queue.priority,
            maxAttempts: queue.maxAttempts)
        try queue.database.open().saveSchedule(Schedule(name: name, request: request, interval: every.seconds))
        Console.write(1, "schedule \(name): every \(every.text), first now\n")
    }
}

struct FleetScheduleListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every schedule and when it is next due.")
    @OptionGroup var database: FleetDatabaseOptions

    func run() throws {
        for schedule in try database.open().schedules() {
            let next = Date(timeIntervalSince1970: schedule.nextRun).formatted(.iso8601)
            Console.write(1, "\(schedule.name)  every \(Int(schedule.interval))s  next \(next)  \(schedule.request.repository)\n")
        }
    }
}

struct FleetScheduleRemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a schedule.")
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The schedule's name.") var name: String

    func run() throws {
        guard try database.open().removeSchedule(name) else { throw SentinelError(.invalidInput, "schedule \(name): no such schedule") }
        Console.write(1, "schedule \(name): removed\n")
    }
}

struct FleetScheduleRunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Run the scheduler until SIGTERM; one leads fleet-wide, the others wait to take over.")
    @OptionGroup var database: FleetDatabaseOptions
    @Option(help: "This scheduler's name in logs (default: host:pid).") var name: String?

    func run() throws {
        let url = try database.resolve()
        _ = try JobQueue(url: url)
        let stop = StopState()
        let signals = FleetWorkerCommand.onStopSignals { _ in stop.advance(to: .abandoning) }
        FleetScheduler(url: url, name: name ?? FleetWorkerCommand.defaultName(), log: JSONLog(), stop: stop).run()
        withExtendedLifetime(signals) {}
    }
}
