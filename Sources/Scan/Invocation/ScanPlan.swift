import Findings
import SAST
import ScanCore
import Support

/// The scan `ScanOptions` ask for, with every precedence rule of `sentinel scan` applied in one
/// place: the configuration (`--config`, else with `--since REV` the base revision's
/// `.sentinel.yml`, else the tree's, plus the command line's globs; docs/SECURITY.md's
/// configuration trust model), the gate (`--fail-on`, else the config's `failOn`, else high), the confidence floor
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
    /// Every setting in force with where it came from, in the order `config show` prints them.
    public private(set) var settings: [ScanSetting] = []

    /// The plan for `options`; reads the tree's `.sentinel.yml` unless `--config` names a file or
    /// `--since` names the base revision whose file counts.
    public init(_ options: ScanOptions) throws {
        var config = ScanConfig()
        var file: String?
        let directory = options.paths.directory
        if let path = options.configFile {
            config = try ScanConfig.load(path: path, environment: options.environment)
            file = path + " (--config)"
        } else if let base = options.base {
            // A pull request's own file may lower its gate: the base revision's counts, held to
            // what a repository's file may name (paths inside the tree, no credentials).
            if let data = base.configuration {
                let name = "\(base.revision):\(ScanConfig.fileName)"
                config = try ScanConfig.parse(
                    String(decoding: data, as: UTF8.self), source: name, baseDirectory: directory,
                    tree: try TreeReader(path: directory))
                file = name + " (--since)"
            }
        } else if let inTree = try ScanConfig.load(inTree: directory) {
            config = inTree
            file = ScanConfig.fileName
        }
        let fromFile = ScanSetting.Origin.file(file ?? "")
        var settings: [ScanSetting] = []
        func origin(_ set: Bool, option: String? = nil) -> ScanSetting.Origin {
            if let option { return .commandLine(option) }
            return set ? fromFile : .defaults
        }
        let configOrigin: ScanSetting.Origin =
            options.configFile != nil
            ? .commandLine("--config")
            : file == nil ? .defaults : options.base != nil ? .commandLine("--since") : .file("the scanned tree's")
        let configValue =
            options.configFile
            ?? (file == nil
                ? "none"
                : options.base.map { "\($0.revision):\(ScanConfig.fileName)" } ?? directory + "/" + ScanConfig.fileName)
        settings.append(ScanSetting(key: "config", value: configValue, origin: configOrigin))
        let fileIncludes = config.include
        let fileExcludes = config.exclude
        config.include += options.includes
        config.exclude += options.excludes
        settings.append(
            ScanSetting(
                key: "include", list: config.include,
                origin: .merged(file: fileIncludes.isEmpty ? nil : fromFile, option: options.includes.isEmpty ? nil : "--include")))
        settings.append(
            ScanSetting(
                key: "exclude", list: config.exclude,
                origin: .merged(file: fileExcludes.isEmpty ? nil : fromFile, option: options.excludes.isEmpty ? nil : "--exclude")))
        let fileDefaultExcludes = config.defaultExcludes
        if options.noDefaultExcludes { config.defaultExcludes = false }
        settings.append(
            ScanSetting(
                key: "default-excludes", value: config.defaultExcludes ? "true" : "false",
                origin: origin(!fileDefaultExcludes, option: options.noDefaultExcludes ? "--no-default-excludes" : nil)))
        self.config = config

        var kinds = options.kinds
        let webOnly = options.web != nil && kinds.isEmpty && !options.pathsGiven
        if options.web != nil { kinds.append(.dast) }
        let gate = options.failOn ?? config.failOn.map { Gate(failOn: $0, requiresProof: config.failOnProven) } ?? Gate()
        settings.append(
            ScanSetting(
                key: "failOn", value: gate.spelled,
                origin: origin(config.failOn != nil, option: options.failOn == nil ? nil : "--fail-on")))
        var request = ScanRequest(
            root: options.paths.root, kinds: kinds.isEmpty ? nil : kinds,
            tools: options.tools ?? (options.zap ? ScannerRegistry.defaultToolNames + [ToolName.zap] : nil),
            config: config, gate: gate, baseline: options.baseline, changedLines: options.base?.changedLines,
            targets: webOnly ? [] : options.paths.targets, maxFileBytes: options.maxFileBytes)
        request.inlineSuppressions = options.inlineSuppressions
        if var prove = options.prove {
            if prove.startsApplication {
                // What runs is the configuration's choice, with its precedence above: the operator's
                // `--config`, else the base revision's under `--since` (never a pull request's head),
                // else the scanned tree's own (the tree the operator chose to run).
                guard let application = config.prove else {
                    throw SentinelError(
                        .invalidInput,
                        "--prove without a URL starts the application 'prove.run' declares, and "
                            + (file == nil ? "there is no configuration (--config FILE or .sentinel.yml)" : "\(configValue) declares none"))
                }
                prove.application = application
                prove.applicationRoot = directory
                prove.options.target = application.url
                prove.options.login = prove.options.login ?? application.login
            }
            prove.options.login = prove.options.login ?? config.dastLogin
            request.prove = prove
        }
        // An operator's option only: a pull request cannot raise the bound its own files are held to.
        request.maxFileWork = options.maxFileWork
        if let base = options.base {
            let revision = base.revision
            let limit = options.maxFileBytes ?? FileWalker.defaultMaxFileBytes
            request.baseContents = BaseContents(changedFiles: Set(base.changedLines.lines.keys)) { file in
                // git reads a path as a pathspec: a name with its magic or glob characters could
                // name another file of the base, so such a name has none there.
                guard !file.hasPrefix(":"), !file.contains(where: { "*?[\\".contains($0) }) else { return nil }
                return (try? GitDiff.file(file, in: directory, at: revision, limit: limit)).map { [UInt8]($0) }
            }
            request.changeFindings = ConfigurationChange.findings(
                base: base, directory: directory, config: config, operatorConfig: options.configFile,
                severity: ChangeReview.severity(under: gate))
        }
        request.minimumSeverity = options.severity
        request.minimumConfidence = options.minConfidence ?? config.minConfidence ?? Confidence.defaultMinimum
        self.request = request
        settings.append(
            ScanSetting(
                key: "minConfidence", value: request.minimumConfidence?.rawValue ?? "low",
                origin: origin(config.minConfidence != nil, option: options.minConfidence == nil ? nil : "--min-confidence")))
        let scanners = request.kinds ?? config.scanners
        settings.append(
            ScanSetting(
                key: "scanners", value: scanners.map { $0.map(\.rawValue).joined(separator: ", ") } ?? "every one that applies",
                origin: origin(config.scanners != nil, option: options.kinds.isEmpty ? nil : "--sast/--sca/--secrets")))
        // The web scanners run only against a `--dast` URL.
        let tools =
            request.tools ?? config.tools
            ?? ScannerRegistry.defaultToolNames.filter { options.web != nil || !ScannerRegistry.webToolNames.contains($0) }
        settings.append(
            ScanSetting(
                key: "tools", value: tools.map(\.rawValue).joined(separator: ", "),
                origin: origin(config.tools != nil, option: options.tools == nil ? nil : "--tools")))
        settings.append(
            ScanSetting(
                key: "severity",
                value: config.severity.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.rawValue)" }
                    .joined(separator: ", "),
                origin: origin(!config.severity.isEmpty)))
        settings.append(
            ScanSetting(key: "rules", list: config.ruleDirectories, origin: origin(!config.ruleDirectories.isEmpty)))
        settings.append(ScanSetting(key: "semgrep.config", list: config.semgrepConfigs, origin: origin(!config.semgrepConfigs.isEmpty)))
        let models = config.taintModels
        settings.append(
            ScanSetting(
                key: "models", value: models == TaintModels() ? "" : "declared", origin: origin(models != TaintModels())))
        settings.append(
            ScanSetting(
                key: "prove.run",
                value: config.prove.map { application in
                    // A `run:` string is shown as written, not as the `/bin/sh -c` that runs it.
                    let command = application.command
                    let shell = command.count == 3 && command[0] == "/bin/sh" && command[1] == "-c"
                    return (shell ? [command[2]] : command).joined(separator: " ") + " (port \(application.port))"
                } ?? "",
                origin: origin(config.prove != nil)))

        requireDatabase = !options.allowMissingDatabase
        allowStaleDatabase = options.allowStaleDatabase
        if let age = options.maxDatabaseAge {
            maxDatabaseAge = age
        } else if let configured = config.maxDatabaseAge {
            maxDatabaseAge = options.configFile != nil ? configured : min(configured, ScanContext.defaultMaxDatabaseAge)
        } else {
            maxDatabaseAge = ScanContext.defaultMaxDatabaseAge
        }
        settings.append(
            ScanSetting(
                key: "sca.max-db-age", value: ScanSetting.duration(maxDatabaseAge),
                origin: origin(config.maxDatabaseAge != nil, option: options.maxDatabaseAge == nil ? nil : "--max-db-age")))
        settings.append(
            ScanSetting(
                key: "sca.missing-db", value: requireDatabase ? "fail" : "skip",
                origin: origin(false, option: options.allowMissingDatabase ? "--allow-missing-db" : nil)))
        settings.append(
            ScanSetting(
                key: "sca.stale-db", value: allowStaleDatabase ? "warn" : "fail",
                origin: origin(false, option: options.allowStaleDatabase ? "--allow-stale-db" : nil)))
        settings.append(
            ScanSetting(
                key: "inline-suppressions",
                value: !options.inlineSuppressions ? "ignored" : options.base != nil ? "the base revision's only" : "honoured",
                origin: !options.inlineSuppressions
                    ? .commandLine("--no-inline-suppressions") : options.base != nil ? .commandLine("--since") : .defaults))
        self.settings = settings
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
