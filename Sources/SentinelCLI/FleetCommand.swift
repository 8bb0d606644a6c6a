import ArgumentParser
import Foundation
import Store
import Support

/// `sentinel fleet`: many workers, one queue (PostgreSQL, or SQLite on one machine).
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet", abstract: "Queue scans and heals for workers on many machines, and read their results.",
        discussion: """
            The queue lives in PostgreSQL (--database postgres://user@host:port/db, or SENTINEL_DATABASE_URL; the \
            password from SENTINEL_DATABASE_URL or PGPASSFILE, never the command line) or, on one machine, in SQLite \
            (sqlite:FILE; the default is fleet.sqlite in the state directory).
            """,
        subcommands: [
            FleetSubmitCommand.self, FleetWorkerCommand.self, FleetStatusCommand.self, FleetJobsCommand.self,
            FleetResultsCommand.self, FleetHistoryCommand.self, FleetCancelCommand.self, FleetApproveCommand.self,
            FleetDenyCommand.self, FleetShowCommand.self, FleetInitDatabaseCommand.self, FleetScheduleCommand.self, FleetAuditCommand.self,
            FleetRetryCommand.self, FleetDeleteCommand.self, FleetPruneCommand.self,
        ])
}

/// `--database`, shared by every fleet command.
struct FleetDatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "postgres://user@host:port/db or sqlite:FILE (default: SENTINEL_DATABASE_URL, else the state directory's fleet.sqlite).",
            valueName: "url"))
    var database: String?

    /// The database to use: `--database`, else `SENTINEL_DATABASE_URL`, else the embedded SQLite file.
    func resolve() throws -> DatabaseURL {
        if let database {
            let url = try OptionValue.naming("--database") { try DatabaseURL(parsing: database) }
            guard !url.hasPassword else {
                throw SentinelError(
                    .invalidInput,
                    "--database: a password on the command line is visible to every user of this machine; put it in SENTINEL_DATABASE_URL or PGPASSFILE"
                )
            }
            return url
        }
        if let text = ProcessInfo.processInfo.environment["SENTINEL_DATABASE_URL"], !text.isEmpty {
            return try OptionValue.naming("SENTINEL_DATABASE_URL") { try DatabaseURL(parsing: text) }
        }
        return .sqlite(path: try StateLocation.current().path + "/fleet.sqlite")
    }

    /// Opens the queue.
    func open() throws -> JobQueue { try JobQueue(url: resolve()) }
}

/// A job id argument.
struct JobID: ExpressibleByArgument {
    let value: Int64
    init?(argument: String) {
        guard let value = Int64(argument), value > 0 else { return nil }
        self.value = value
    }
}
