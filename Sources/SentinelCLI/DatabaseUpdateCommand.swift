import ArgumentParser
import CLICore
import Foundation
import SCA
import Store
import Support

/// `sentinel db update`: downloads OSV's per-ecosystem exports and imports them. As root it runs
/// as the unprivileged analysis (the server's answer and the `--for` tree are hostile input):
/// root lends the state directory and lets it reach the export's host only.
struct DatabaseUpdateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update",
        abstract: "Download the OSV project's per-ecosystem exports (BASE/<ecosystem>/all.zip) and import them.",
        discussion: """
            Conditional requests (ETag/Last-Modified): an unchanged export is not downloaded again. Each ecosystem \
            is imported in one transaction and replaces that ecosystem's records (records the export no longer \
            holds are removed); a failed, damaged or oversized download leaves its data as it was. Exit status 1 \
            when any ecosystem failed.
            """)

    @Option(
        name: .customLong("ecosystem"),
        help:
            "An ecosystem to update (repeatable; default: those --for's lockfiles use, else those in the database, else PyPI, npm, Go, crates.io, Maven, RubyGems, Packagist, NuGet)."
    )
    var ecosystems: [String] = []

    @Option(
        name: .customLong("for"),
        help: ArgumentHelp(
            "Update every ecosystem whose pinned dependencies the lockfiles under this directory name (what `scan` of it checks).",
            valueName: "dir"))
    var tree: String?

    @Option(help: "Base URL of the exports (default: $SENTINEL_OSV_URL, else the public OSV bucket).")
    var url: String?

    func validate() throws {
        if let url, !(url.hasPrefix("http://") || url.hasPrefix("https://")) {
            throw ValidationError("--url: '\(url)' is not an http:// or https:// URL")
        }
        for name in ecosystems where name.isEmpty || name.contains("/") {
            throw ValidationError("--ecosystem: '\(name)' is not an ecosystem name")
        }
        if let tree, !FileManager.default.fileExists(atPath: tree) {
            throw ValidationError("--for: \(tree): no such file or directory")
        }
    }

    /// The exports' base URL: `--url`, else `$SENTINEL_OSV_URL`, else OSV's bucket.
    var baseURL: String {
        let environment = ProcessInfo.processInfo.environment["SENTINEL_OSV_URL"].flatMap { $0.isEmpty ? nil : $0 }
        return url ?? environment ?? OSVUpdater.defaultBaseURL
    }

    func run() throws {
        try AnalysisSandbox.enterStartDirectory()
        if AnalysisSandbox.applies {
            do {
                throw ExitCode(try separatedUpdate())
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("updating")
            }
        }
        let database = try OSVDatabase(path: StateLocation.current().osvDatabase)
        let updater = OSVUpdater(baseURL: baseURL)
        guard let names = try chosenEcosystems(database) else { return }
        var failed = false
        let progress = ProgressReporter.forStderr(quiet: false, environment: ProcessInfo.processInfo.environment)
        defer { progress.stop() }
        for name in names {
            switch try progress.update(name, with: updater, in: database) {
            case .imported(let report):
                for problem in report.problems { Console.error("sentinel: \(problem.source): \(problem.message)") }
                Console.out(
                    "\(name): imported \(report.files) files: \(report.inserted) new, \(report.updated) updated, "
                        + "\(report.unchanged) unchanged, \(report.problems.count) problems"
                        + (report.removed > 0 ? ", \(report.removed) no longer in the export removed" : ""))
            case .notModified:
                Console.out("\(name): up to date (not modified)")
            case .failed(let message):
                failed = true
                Console.error("sentinel: \(name): \(message); its data is unchanged")
            }
        }
        if failed { throw ExitCode(1) }
    }

    /// `--ecosystem`s plus what `--for`'s lockfiles use; without either, the database's own, else
    /// the common ones. Nil (said so) when `--for`'s tree pins nothing and no `--ecosystem` was given.
    private func chosenEcosystems(_ database: OSVDatabase) throws -> [String]? {
        guard let tree else {
            if !ecosystems.isEmpty { return ecosystems }
            let stored = try database.storedEcosystems()
            return stored.isEmpty ? OSVUpdater.defaultEcosystems : stored
        }
        let used = try LockfileDetector.ecosystemsInUse(under: tree)
        for problem in used.unreadable { Console.error("sentinel: warning: \(tree): \(problem)") }
        var names = ecosystems
        for name in used.ecosystems where !names.contains(name) { names.append(name) }
        if names.isEmpty {
            Console.out("\(tree): no lockfile pins a dependency; nothing to update")
            return nil
        }
        if !used.ecosystems.isEmpty {
            Console.out("\(tree): lockfiles use \(used.ecosystems.joined(separator: ", "))")
        }
        return names
    }

    /// Root's part: the update as the unprivileged analysis, over `--for`'s tree (read-only),
    /// with the state directory lent writable and egress to the exports' host only.
    private func separatedUpdate() throws -> Int32 {
        let state = try StateLocation.current()
        var analysis: AnalysisSandbox
        if let tree {
            analysis = try AnalysisSandbox.over(tree, named: [tree]) { OutputPlacement.realPath($0) ?? AnalysisSandbox.absolute($0) }
        } else {
            analysis = AnalysisSandbox(
                arguments: Array(CommandLine.arguments.dropFirst()), repository: nil,
                workingDirectory: FileManager.default.currentDirectoryPath)
        }
        // The analysis writes the database, reached at its path (no read hold of root's).
        try analysis.lendState(state, osvByDescriptor: false)
        analysis.egress = EgressEntry.of(url: baseURL)
        analysis.environment["SENTINEL_OSV_URL"] = baseURL
        return try analysis.run()
    }
}
