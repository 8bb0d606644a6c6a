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
        commandName: "add", abstract: "Scan a repository every interval or on a cron schedule (replaces a schedule of the same name).",
        discussion: """
            --cron takes the five standard fields (minute hour day-of-month month day-of-week): lists (1,15), ranges \
            (1-5), steps (*/15, 8-18/2), month and day names (JAN, mon-fri), 0 or 7 for Sunday, and @yearly, @monthly, \
            @weekly, @daily, @hourly. When both day fields are restricted, a day matching either runs (Vixie cron). \
            Times are read in --time-zone (default UTC): a time a spring-forward skips runs once at the first instant \
            after the gap; a time a fall-back repeats runs once, at its first occurrence.
            """)
    @Argument(help: "The schedule's name.") var name: String
    @Argument(help: "The repository: a directory on the workers' file system, or a git URL.") var path: String
    @Option(help: "How often (e.g. 30m, 6h, 1d); or --cron.") var every: DurationArgument?
    @Option(help: ArgumentHelp("When, as a cron expression (e.g. \"0 3 * * mon-fri\", @daily); or --every.", valueName: "expr"))
    var cron: String?
    @Option(
        name: .customLong("time-zone"),
        help: ArgumentHelp("The zone --cron is read in (an IANA name, e.g. Europe/Paris; default UTC).", valueName: "zone"))
    var timeZone: String?
    @Option(help: ArgumentHelp("Scan this revision (a clone is checked out).", valueName: "rev")) var rev: String?
    @OptionGroup var queue: FleetQueueOptions
    @Argument(parsing: .allUnrecognized, help: "Options for `sentinel scan`.") var scanOptions: [String] = []

    func validate() throws {
        guard (every == nil) != (cron == nil) else { throw ValidationError("give --every or --cron (one of them)") }
        guard timeZone == nil || cron != nil else { throw ValidationError("--time-zone: only with --cron") }
    }

    func run() throws {
        // Its messages name the expression's field or the zone.
        let schedule = try cron.map { text in try CronSchedule(expression: CronExpression(text), timeZone: timeZone ?? "UTC") }
        try FleetPassThrough.check(scanOptions, kind: .scan, as: ScanCommand.self, around: ["."])
        try FleetJobSpec.checkRevision(rev)
        let repository = try FleetPassThrough.repository(path)
        let spec = FleetJobSpec(kind: .scan, repository: repository, revision: rev, arguments: scanOptions)
        let request = JobRequest(
            kind: .scan, spec: try spec.encoded(), repository: repository, branch: rev ?? "", priority: queue.priority,
            maxAttempts: queue.maxAttempts)
        let store = try queue.database.open()
        try store.saveSchedule(Schedule(name: name, request: request, interval: every?.seconds ?? 0, cron: schedule))
        if let every {
            Console.write(1, "schedule \(name): every \(every.text), first now\n")
        } else if let schedule, let saved = try store.schedules().first(where: { $0.name == name }) {
            let next = Date(timeIntervalSince1970: saved.nextRun).formatted(.iso8601)
            Console.write(1, "schedule \(name): cron \(schedule.expression) in \(schedule.timeZone), first \(next)\n")
        }
    }
}

struct FleetScheduleListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Every schedule and when it is next due.")
    @OptionGroup var database: FleetDatabaseOptions

    func run() throws {
        for schedule in try database.open().schedules() {
            let next = Date(timeIntervalSince1970: schedule.nextRun).formatted(.iso8601)
            let when =
                schedule.cron.map { "cron \(DisplayText.escaped($0.expression.text)) \($0.timeZone)" } ?? "every \(Int(schedule.interval))s"
            // Rows of a shared database: their name and repository drive no terminal.
            Console.out("\(DisplayText.escaped(schedule.name))  \(when)  next \(next)  \(DisplayText.escaped(schedule.request.repository))")
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
        let signals = StopSignals.observe { _ in stop.advance(to: .abandoning) }
        FleetScheduler(url: url, name: name ?? FleetWorkerCommand.defaultName(), log: JSONLog(), stop: stop).run()
        withExtendedLifetime(signals) {}
    }
}
