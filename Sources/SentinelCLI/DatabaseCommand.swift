import ArgumentParser
import CLICore
import Foundation
import SCA
import Store
import Support

/// `sentinel db`: the offline OSV database SCA matches lockfiles against.
struct DatabaseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db", abstract: "Manage the offline OSV vulnerability database.",
        subcommands: [DatabaseImportCommand.self, DatabaseUpdateCommand.self, DatabaseStatusCommand.self])
}

struct DatabaseImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import OSV records: JSON or YAML files, directories of them, or .zip exports.",
        discussion:
            "Idempotent and transactional: a record replaces the stored one unless the stored `modified` is newer (a date past tomorrow orders nothing); a damaged archive, or one past the size bounds, fails the import, and an interrupted import leaves the previous database intact."
    )

    @Argument(help: "Files, directories or .zip exports.") var paths: [String]

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("give at least one file, directory or .zip export") }
        for path in paths where !FileManager.default.fileExists(atPath: path) {
            throw ValidationError("\(path): no such file or directory")
        }
    }

    func run() throws {
        try AnalysisSandbox.enterStartDirectory()
        if AnalysisSandbox.applies {
            do {
                throw ExitCode(try separatedImport())
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("importing")
            }
        }
        let database = try OSVDatabase(path: StateLocation.current().osvDatabase)
        let source = "import " + paths.joined(separator: " ")
        let progress = ProgressReporter.forStderr(quiet: false, environment: ProcessInfo.processInfo.environment)
        let report = try progress.during("db import: reading \(paths.count) path\(paths.count == 1 ? "" : "s")") {
            try database.import(paths: paths, feed: FeedState(ecosystem: "", source: source))
        }
        progress.stop()
        for problem in report.problems { Console.error("sentinel: \(problem.source): \(problem.message)") }
        Console.out(
            "imported \(report.files) files: \(report.inserted) new, \(report.updated) updated, "
                + "\(report.unchanged) unchanged, \(report.olderIgnored) older ignored, \(report.problems.count) problems")
        Console.out("database: \(try StateLocation.current().osvDatabase)")
        if report.files > 0 && report.problems.count == report.files { throw ExitCode(2) }
    }

    /// Root's part (issue 78, W4): the import as the unprivileged analysis, as `db update` runs,
    /// with exactly the paths named lent read-only (a directory by descriptor, a file alone) and
    /// the state directory lent writable; no network. What another user left in a directory
    /// named here is read with the analysis' rights and bounds, never root's.
    private func separatedImport() throws -> Int32 {
        let state = try StateLocation.current()
        let named = paths.map(AnalysisSandbox.absolute)
        var analysis = AnalysisSandbox(
            arguments: ["db", "import"] + named, repository: nil, workingDirectory: FileManager.default.currentDirectoryPath)
        for path in named {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            if isDirectory.boolValue { analysis.readOnlyTrees.append(path) } else { analysis.readOnlyFiles.append(path) }
        }
        // The analysis writes the database, reached at its path (no read hold of root's).
        try analysis.lendState(state, osvByDescriptor: false)
        return try analysis.run()
    }
}

struct DatabaseStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "Show what the database holds.",
        discussion:
            "Per ecosystem: records, the newest `modified`, the age scan judges (from that date; over --max-db-age, default 7d, a scan fails), where the data came from and when it was last imported or confirmed current."
    )

    func run() throws {
        let path = try StateLocation.current().osvDatabase
        guard FileManager.default.fileExists(atPath: path) else {
            throw SentinelError(.invalidInput, "no OSV database at \(path): run `sentinel db import PATH...` or `sentinel db update`")
        }
        let database = try OSVDatabase(path: path)
        let status = try database.status()
        let feeds = Dictionary(try database.feeds().map { ($0.ecosystem, $0) }, uniquingKeysWith: { a, _ in a })
        Console.out("database  \(status.path) (\(ByteCountFormatter.string(fromByteCount: status.fileSize, countStyle: .file)))")
        Console.out("records   \(status.records) (\(status.withdrawn) withdrawn)")
        Console.out("modified  newest \(status.newestModified ?? "-")")
        let now = Date()
        var ages: [String: DataAge] = [:]
        for entry in status.ecosystems {
            var line =
                "  \(entry.ecosystem.padding(toLength: 12, withPad: " ", startingAt: 0)) \(entry.records) records, newest \(entry.newestModified ?? "-")"
            // The age `scan` judges: the export's newest `modified`, whatever the import time.
            let export = FeedState.exportName(entry.ecosystem)
            if ages[export] == nil { ages[export] = try database.dataAge(of: export, now: now) }
            line += ", age " + (ages[export].map { FeedState.describeAge($0.seconds(at: now)) } ?? "unknown")
            if let feed = feeds[export] {
                line += ", source \(feed.source), updated \(FeedState.describeAge(now.timeIntervalSince(feed.refreshedAt))) ago"
            } else {
                line += ", source unknown"
            }
            Console.out(line)
        }
    }
}
