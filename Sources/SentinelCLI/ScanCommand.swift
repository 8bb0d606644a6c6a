import ArgumentParser
import Findings
import Foundation
import Scan
import Support

/// `sentinel scan`: the CI entry point. Exit 0 clean, 1 findings at or above `--fail-on`,
/// 2 bad usage/config/input, 3 a scanner failed.
struct ScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a tree for vulnerabilities, secrets and vulnerable dependencies.",
        discussion: "Exit status: 0 nothing at or above --fail-on; 1 findings at or above it; 2 bad usage, config or input; 3 a scanner failed."
    )

    @Argument(help: "The directories or files to scan (default: the current directory).")
    var paths: [String] = []

    @Flag(help: "Static analysis (native rules; Bandit/Semgrep with --tools).") var sast = false
    @Flag(help: "Dependencies against the offline OSV database.") var sca = false
    @Flag(help: "Committed credentials.") var secrets = false
    @Option(help: "Dynamic scan of this URL.") var dast: String?

    @Option(help: "Comma-separated tools: native, secrets, osv (the default set), bandit, semgrep.")
    var tools: String?

    @Option(help: "Output format: text, json, sarif, html.") var format: String = "text"
    @Option(help: "Write the report here instead of standard output.") var output: String?
    @Option(name: .customLong("fail-on"), help: "Lowest severity that fails the scan, or none (default: high).")
    var failOn: String?
    @Option(help: "Report only findings not in this baseline file.") var baseline: String?
    @Option(name: .customLong("write-baseline"), help: "Write every current finding to this baseline file.")
    var writeBaseline: String?
    @Option(help: "Report only findings on lines changed since this git revision.") var since: String?
    @Option(help: "Config file (default: PATH/.sentinel.yml when present).") var config: String?
    @Option(name: .customLong("max-file-size"), help: "Skip (and list) files larger than this; K/M/G suffixes (default: 5M).")
    var maxFileSize: String?

    func run() async throws {
        let scanPaths = try ScanPaths.resolve(paths)
        let root = scanPaths.root
        let maxFileBytes = try maxFileSize.map { text -> Int in
            guard let bytes = Quantity.bytes(text), bytes <= UInt64(Int.max) else {
                throw SentinelError(.invalidInput, "--max-file-size: '\(text)' is not a size (e.g. 5M, 512K, 1G)")
            }
            return Int(bytes)
        }
        if dast != nil { throw SentinelError(.invalidInput, "--dast: dynamic scanning is not available in this build") }
        let outputFormat = try OutputFormat(parsing: format)

        var scanConfig = ScanConfig()
        let directory = isDirectory(root) ? root : (root as NSString).deletingLastPathComponent
        if let config {
            scanConfig = try ScanConfig.load(path: config)
        } else if FileManager.default.fileExists(atPath: directory + "/" + ScanConfig.fileName) {
            scanConfig = try ScanConfig.load(path: directory + "/" + ScanConfig.fileName)
        }

        var kinds: [ScannerKind] = []
        if sast { kinds.append(.sast) }
        if sca { kinds.append(.sca) }
        if secrets { kinds.append(.secrets) }
        let gate: Gate
        if let failOn {
            gate = try Gate(parsing: failOn)
        } else if let configured = scanConfig.failOn {
            gate = Gate(failOn: configured)
        } else {
            gate = Gate()
        }
        let request = ScanRequest(
            root: root, kinds: kinds.isEmpty ? nil : kinds,
            tools: tools.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } },
            config: scanConfig, gate: gate, baseline: try baseline.map(Baseline.load),
            changedLines: try since.map { try GitDiff.changedLines(in: directory, since: $0) },
            targets: scanPaths.targets, maxFileBytes: maxFileBytes)

        let progress = ProgressLine(enabled: Console.stderrIsTerminal)
        let context = ScanContext(ruleDirectories: scanConfig.ruleDirectories,
                                  databasePath: SentinelHome.databasePath,
                                  progress: { progress.show($0) })
        let runner = ScanRunner(scanners: ScannerRegistry.standard(config: scanConfig))
        let outcome = try runner.run(request, context: context)
        progress.clear()

        if let writeBaseline {
            try Baseline.write(outcome.report.findings, to: writeBaseline)
        }
        let color = output == nil && outputFormat == .text && Console.stdoutIsTerminal
        var renderer = outputFormat.renderer(color: color, sourceRoot: directory)
        // Failed tools go to stderr below; a text report on stdout does not repeat them.
        if output == nil, var text = renderer as? TextRenderer {
            text.showToolFailures = false
            renderer = text
        }
        let rendered = renderer.render(outcome.report)
        if let output {
            try AtomicFile.write(rendered, to: output)
        } else {
            Console.write(1, rendered.hasSuffix("\n") ? rendered : rendered + "\n")
        }
        for notice in outcome.report.notices where notice.level == .error {
            Console.error("sentinel: \(notice.tool.map { "\($0): " } ?? "")\(notice.message)")
        }
        for tool in outcome.report.tools where tool.status == .failed {
            let message = tool.message ?? "failed"
            Console.error("sentinel: " + (message.hasPrefix(tool.name + " ") ? message : "\(tool.name): \(message)"))
        }
        throw ExitCode(outcome.exitStatus.rawValue)
    }

    private func isDirectory(_ path: String) -> Bool {
        var directory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &directory) && directory.boolValue
    }
}
