import ArgumentParser
import Foundation
import SCA
import Support

/// `sentinel db`: the offline OSV database SCA matches lockfiles against.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "Manage the offline OSV vulnerability database.",
        subcommands: [DatabaseImportCommand.self, DatabaseStatusCommand.self])
}

struct DatabaseImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import OSV records: JSON or YAML files, directories of them, or .zip exports.",
        discussion: "Idempotent and transactional: a record replaces the stored one only when its `modified` is newer; an interrupted import leaves the previous database intact.")

    @Argument(help: "Files, directories or .zip exports.") var paths: [String]

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one file, directory or .zip export") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path): no such file or directory")
        }
    }

    func run() async throws {
        try FileManager.default.createDirectory(atPath: SentinelHome.directory, withIntermediateDirectories: true)
        let database = try OSVDatabase(path: SentinelHome.databasePath)
        let report = try database.import(paths: paths)
        for problem in report.problems { Console.error("sentinel: \(problem.source): \(problem.message)") }
        Console.out("imported \(report.files) files: \(report.inserted) new, \(report.updated) updated, "
            + "\(report.unchanged) unchanged, \(report.olderIgnored) older ignored, \(report.problems.count) problems")
        Console.out("database: \(SentinelHome.databasePath)")
        if report.files > 0 && report.problems.count == report.files { throw ExitCode(2) }
    }
}

struct DatabaseStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show what the database holds.")

    func run() async throws {
        let path = SentinelHome.databasePath
        guard FileManager.default.fileExists(atPath: path) else {
            throw SentinelError(.invalidInput, "no OSV database at \(path): run `sentinel db import PATH...`")
        }
        let status = try OSVDatabase(path: path).status()
        Console.out("database  \(status.path) (\(ByteCountFormatter.string(fromByteCount: status.fileSize, countStyle: .file)))")
        Console.out("records   \(status.records) (\(status.withdrawn) withdrawn)")
        Console.out("modified  newest \(status.newestModified ?? "-")")
        for entry in status.ecosystems {
            Console.out("  \(entry.ecosystem.padding(toLength: 12, withPad: " ", startingAt: 0)) \(entry.records) records, newest \(entry.newestModified ?? "-")")
        }
    }
}
