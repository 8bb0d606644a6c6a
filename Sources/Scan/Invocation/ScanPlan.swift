import Findings
import ScanCore

/// The scan `ScanOptions` ask for, with every precedence rule of `sentinel scan` applied in one
/// place: the configuration (`--config`, else the tree's `.sentinel.yml`, plus the command line's
/// globs), the gate (`--fail-on`, else the config's `failOn`, else high), the confidence floor
/// (`--min-confidence`, else the config's, else medium), the kinds (`--dast URL` alone scans the
/// application only) and the advisory data's age limit (a tree's own config may ask for fresher
/// data, never accept older; a `--config` file is the operator's).
public struct ScanPlan: Sendable {
    /// What the runner is asked.
    public var request: ScanRequest
    /// The configuration in force.
    public var config: ScanConfig
    /// Whether a scan without advisory data fails (exit 3) rather than skipping SCA.
    public var requireDatabase: Bool
    /// Whether data older than `maxDatabaseAge` is used with a warning rather than failing.
    public var allowStaleDatabase: Bool
    /// The age limit of the advisory data, in seconds.
    public var maxDatabaseAge: Double

    /// The plan for `options`; reads the tree's `.sentinel.yml` unless `--config` names a file.
    public init(_ options: ScanOptions) throws {
        var config = ScanConfig()
        if let file = options.configFile {
            config = try ScanConfig.load(path: file, environment: options.environment)
        } else if let inTree = try ScanConfig.load(inTree: options.paths.directory) {
            config = inTree
        }
        config.include += options.includes
        config.exclude += options.excludes
        if options.noDefaultExcludes { config.defaultExcludes = false }
        self.config = config

        var kinds = options.kinds
        let webOnly = options.web != nil && kinds.isEmpty && !options.pathsGiven
        if options.web != nil { kinds.append(.dast) }
        let gate = options.failOn ?? config.failOn.map { Gate(failOn: $0) } ?? Gate()
        var request = ScanRequest(
            root: options.paths.root, kinds: kinds.isEmpty ? nil : kinds,
            tools: options.tools ?? (options.zap ? ScannerRegistry.defaultToolNames + [ToolName.zap] : nil),
            config: config, gate: gate, baseline: options.baseline, changedLines: options.changedLines,
            targets: webOnly ? [] : options.paths.targets, maxFileBytes: options.maxFileBytes)
        request.minimumSeverity = options.severity
        request.minimumConfidence = options.minConfidence ?? config.minConfidence ?? Confidence.defaultMinimum
        self.request = request

        requireDatabase = !options.allowMissingDatabase
        allowStaleDatabase = options.allowStaleDatabase
        if let age = options.maxDatabaseAge {
            maxDatabaseAge = age
        } else if let configured = config.maxDatabaseAge {
            maxDatabaseAge = options.configFile != nil ? configured : min(configured, ScanContext.defaultMaxDatabaseAge)
        } else {
            maxDatabaseAge = ScanContext.defaultMaxDatabaseAge
        }
    }

    /// `context` with the plan's advisory-data rules.
    public func configure(_ context: inout ScanContext) {
        context.requireDatabase = requireDatabase
        context.allowStaleDatabase = allowStaleDatabase
        context.maxDatabaseAge = maxDatabaseAge
    }

    /// The exit status of `outcome`: writing a baseline accepts the findings it lists, so they do
    /// not fail the run that wrote it.
    public static func exitStatus(of outcome: ScanOutcome, wroteBaseline: Bool) -> ScanExitStatus {
        wroteBaseline && outcome.exitStatus == .findings ? .clean : outcome.exitStatus
    }
}
