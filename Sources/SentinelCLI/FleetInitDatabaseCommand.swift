import ArgumentParser
import CLICore
import Foundation
import Store
import Support

/// `sentinel fleet init-db`: the fleet's tables and its four roles on PostgreSQL.
struct FleetInitDatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init-db", abstract: "Create the fleet's tables and its database roles (PostgreSQL).",
        discussion: """
            Runs the schema migrations, then creates the NOLOGIN group roles sentinel_submitter (submit jobs, read \
            its own), sentinel_worker (claim, complete, record results, patches and audit lines), sentinel_approver \
            (read jobs and patches, record decisions under its own name and audit lines in its own chain) and \
            sentinel_reader (read everything), with exactly those grants and row-level security on jobs, results \
            and audit chains. Running it again changes nothing. \
            Connect as the tables' owner, a role that may create roles; give people and machines login roles in \
            these groups (CREATE ROLE alice LOGIN IN ROLE sentinel_approver). SQLite needs none of this. Exit \
            status: 0 done; 2 SQLite or bad usage.
            """)
    @OptionGroup var database: FleetDatabaseOptions

    func run() throws {
        let queue = try database.open()
        try queue.createRoles()
        Console.write(
            1,
            "\(DisplayText.escaped(queue.location)): fleet tables at the latest migration; roles \(FleetRole.allCases.map(\.rawValue).joined(separator: ", "))\n"
        )
    }
}
