import ArgumentParser
import CLICore
import Findings
import Fleet
import Foundation
import Scan
import Store
import Support

/// `sentinel fleet results JOB`: the job's report from the database, rendered as `scan` renders it.
struct FleetResultsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "results", abstract: "Print a finished job's report, as `sentinel scan` would.",
        discussion: "Exit status: 0 printed; 1 the job has no result (yet); 2 bad usage or no such job.")
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The job id.") var job: JobID
    @Option(help: "Output format: json, sarif or text.") var format: OutputFormat = .json
    @Option(
        help: ArgumentHelp(
            "Only findings new since this job's scan, or since the previous scan of the branch with 'previous'.", valueName: "job|previous")
    )
    var since: ResultsBaseline?

    func run() throws {
        let queue = try database.open()
        guard let stored = try queue.job(job.value) else { throw SentinelError(.invalidInput, "job \(job.value): no such job") }
        guard let result = try queue.result(job.value) else {
            if stored.state == .running, let patch = try queue.patch(of: job.value), patch.awaiting,
                try queue.decision(job.value, digest: patch.digest) == nil
            {
                Console.error(
                    "sentinel: job \(job.value) is awaiting approval of patch \(patch.digest.prefix(16)): see sentinel fleet show \(job.value), then fleet approve or deny"
                )
                throw ExitCode(1)
            }
            Console.error(
                "sentinel: job \(job.value) is \(stored.state.rawValue): no result\(stored.lastError.map { " (\(DisplayText.escaped($0)))" } ?? "")"
            )
            throw ExitCode(1)
        }
        // A no-op job's result is empty: nothing to print.
        guard stored.request.kind != .noop else { return }
        guard stored.request.kind != .heal else {
            guard format == .json else { throw SentinelError(.invalidInput, "--format: a heal job's result is JSON") }
            Console.write(1, result.report.hasSuffix("\n") ? result.report : result.report + "\n")
            return
        }
        var record = try ScanRecord.decode(Data(result.report.utf8), name: "job \(job.value)")
        if let since {
            let delta = try queue.findingsDelta(of: job.value, against: since.job)
            let added = Set((delta.new + delta.reintroduced).map(\.fingerprint))
            record.report.findings = record.report.findings.filter { added.contains($0.fingerprint) }
        }
        let repository = record.repositoryRoot.map { (root: $0, prefix: record.repositoryPrefix ?? "") }
        let output = ScanReportOutput(
            format: format, toFile: false, stdoutIsTerminal: Console.stdoutIsTerminal, verbosity: .normal, repository: repository,
            directory: record.directory, version: SentinelVersion.current, environment: ProcessInfo.processInfo.environment)
        let rendered = output.renderer().render(record.report)
        Console.write(1, rendered.hasSuffix("\n") ? rendered : rendered + "\n")
    }
}

/// `sentinel fleet history JOB`: what changed since the previous scan of the branch.
struct FleetHistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Findings new, reintroduced and fixed since the previous scan of the same branch (or --since JOB).")
    @OptionGroup var database: FleetDatabaseOptions
    @Argument(help: "The job id of a scan.") var job: JobID
    @Option(help: "Compare with this scan instead.") var since: JobID?
    @Option(help: "Output format: text or json.") var format: FleetListFormat = .text

    func run() throws {
        let queue = try database.open()
        guard try queue.job(job.value) != nil else { throw SentinelError(.invalidInput, "job \(job.value): no such job") }
        let delta = try queue.findingsDelta(of: job.value, against: since?.value)
        switch format {
        case .json: Console.write(1, try FleetJSON.encode(delta) + "\n")
        case .text:
            Console.write(1, "compared with \(delta.baseJob.map { "job \($0)" } ?? "nothing (first scan)")\n")
            for (label, findings) in [("new", delta.new), ("reintroduced", delta.reintroduced), ("fixed", delta.fixed)] {
                for finding in findings {
                    Console.write(
                        1,
                        "\(label)  \(DisplayText.escaped(finding.severity))  \(DisplayText.escaped(finding.ruleID))  \(DisplayText.escaped(finding.location))\n"
                    )
                }
            }
            Console.write(
                1,
                "\(delta.new.count) new, \(delta.reintroduced.count) reintroduced, \(delta.fixed.count) fixed, \(delta.unchanged) unchanged\n"
            )
        }
    }
}
