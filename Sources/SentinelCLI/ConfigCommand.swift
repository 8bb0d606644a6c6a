import ArgumentParser
import CLICore
import Findings
import Foundation
import Scan
import ScanCore
import Support

/// `sentinel config`: the configuration a scan would use.
struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Show the configuration a scan would use.", subcommands: [ConfigShowCommand.self])
}

/// `sentinel config show`: every setting `sentinel scan` with the same arguments would use, and
/// where each came from (default, the tree's `.sentinel.yml`, `--config FILE`, or an option).
/// The precedence is `ScanPlan`'s, the one place scan applies it.
struct ConfigShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "show",
        abstract: "Print the effective scan configuration and where each value came from.",
        discussion: "Takes scan's configuration options; exit status 2 when the configuration is not valid.")

    @Argument(help: "The directory a scan would read (default: the current directory).") var path: String?
    @Option(help: "Config file (default: PATH/.sentinel.yml when present).") var config: String?
    @Option(name: .customLong("fail-on"), help: "As scan's --fail-on.") var failOn: Gate?
    @Option(name: .customLong("min-confidence"), help: "As scan's --min-confidence.") var minConfidence: Confidence?
    @Option(help: "As scan's --tools.") var tools: ToolList?
    @Option(name: .customLong("include"), help: ArgumentHelp("As scan's --include.", valueName: "glob")) var includes: [String] = []
    @Option(name: .customLong("exclude"), help: ArgumentHelp("As scan's --exclude.", valueName: "glob")) var excludes: [String] = []
    @Flag(name: .customLong("no-default-excludes"), help: "As scan's --no-default-excludes.") var noDefaultExcludes = false
    @Option(name: .customLong("max-db-age"), help: "As scan's --max-db-age.") var maxDatabaseAge: NonNegativeDurationArgument?
    @Flag(name: .customLong("allow-missing-db"), help: "As scan's --allow-missing-db.") var allowMissingDatabase = false
    @Flag(name: .customLong("allow-stale-db"), help: "As scan's --allow-stale-db.") var allowStaleDatabase = false
    @Option(help: ArgumentHelp("As scan's --since: the revision's .sentinel.yml, not the tree's.", valueName: "rev"))
    var since: String?
    @Flag(name: .customLong("no-inline-suppressions"), help: "As scan's --no-inline-suppressions.")
    var noInlineSuppressions = false

    func run() throws {
        try AnalysisSandbox.enterStartDirectory()
        let paths = try ScanPaths.resolve(path.map { [$0] } ?? [])
        // The tree's .sentinel.yml is the repository's: as root, read by the unprivileged analysis.
        if AnalysisSandbox.applies {
            do {
                // git must see the work tree for `--since`.
                var analysis = try AnalysisSandbox.over(paths.directory, named: Set(path.map { [$0] } ?? [])) { directory in
                    (since != nil ? AnalysisSandbox.workTreeTop(directory) : nil) ?? OutputPlacement.realPath(directory) ?? directory
                }
                let repository = analysis.repository ?? paths.directory
                analysis.readOnlyFiles = [config].compactMap { $0 }.map(AnalysisSandbox.absolute).filter {
                    !($0 == repository || $0.hasPrefix(repository + "/"))
                }
                throw ExitCode(try analysis.run())
            } catch let unavailable as AnalysisSandbox.Unavailable {
                unavailable.warnRootGoesOn("reading")
            }
        }
        var options = ScanOptions(paths: paths, given: path != nil)
        options.configFile = config
        options.environment = ProcessInfo.processInfo.environment
        options.failOn = failOn
        options.minConfidence = minConfidence
        options.tools = tools?.names
        options.includes = includes
        options.excludes = excludes
        options.noDefaultExcludes = noDefaultExcludes
        options.allowMissingDatabase = allowMissingDatabase
        options.allowStaleDatabase = allowStaleDatabase
        options.maxDatabaseAge = maxDatabaseAge?.seconds
        options.inlineSuppressions = !noInlineSuppressions
        options.base = try since.map { revision in
            try OptionValue.naming("--since", value: revision) { try BaseRevision.read(in: paths.directory, since: revision) }
        }
        let plan = try ScanPlan(options)
        Console.text(Self.render(plan.settings, directory: paths.directory))
    }

    /// One line per setting, `key  value  # origin`, aligned, values escaped for the terminal.
    static func render(_ settings: [ScanSetting], directory: String) -> String {
        let keyWidth = (settings.map(\.key.count).max() ?? 0) + 2
        let values = settings.map { $0.value.isEmpty ? "-" : DisplayText.escaped($0.value) }
        let valueWidth = min(32, (values.map(\.count).max() ?? 0) + 2)
        var text = "# sentinel scan \(DisplayText.escaped(directory)) would use:\n"
        for (setting, value) in zip(settings, values) {
            let key = setting.key.padding(toLength: keyWidth, withPad: " ", startingAt: 0)
            let shown = value.count < valueWidth ? value.padding(toLength: valueWidth, withPad: " ", startingAt: 0) : value + "  "
            text += key + shown + "# " + DisplayText.escaped(setting.origin.description) + "\n"
        }
        return text
    }
}
