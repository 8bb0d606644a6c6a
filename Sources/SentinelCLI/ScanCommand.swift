import Adapters
import ArgumentParser
import CLICore
import DAST
import Findings
import Fleet
import Foundation
import Git
import Sandbox
import Scan
import ScanCore
import Store
import Support
import Web

/// `sentinel scan`: the CI entry point. Exit 0 clean, 1 findings at or above `--fail-on`,
/// 2 bad usage/config/input, 3 a scanner failed.
struct ScanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Scan a tree for vulnerabilities, secrets and vulnerable dependencies.",
        discussion:
            "Exit status: 0 nothing at or above --fail-on; 1 findings at or above it; 2 bad usage, config or input; 3 a scanner failed."
    )

    @Argument(help: "The directories or files to scan (default: the current directory).")
    var paths: [String] = []

    @Flag(help: "Static analysis (native rules; Bandit/Semgrep with --tools).") var sast = false
    @Flag(help: "Dependencies against the offline OSV database.") var sca = false
    @Flag(help: "Committed credentials.") var secrets = false
    @Option(help: ArgumentHelp("Dynamic scan of this web application (passive unless --active).", valueName: "url"))
    var dast: String?
    @Flag(help: "With --dast: also send attack payloads (injections; POST forms are submitted).") var active = false
    @Option(
        help: ArgumentHelp(
            "Prove each taint finding at a route against the application running at this URL (its check, to that route and parameter only); alone, against the one the config's prove.run starts in a sandbox.",
            valueName: "url"))
    var prove: String?
    @Option(help: ArgumentHelp("With --dast: seed endpoints from this OpenAPI 3 document.", valueName: "file"))
    var openapi: String?
    @Option(
        name: .customLong("header"),
        help: ArgumentHelp("With --dast or --prove: send this header with every request (repeatable).", valueName: "'Name: value'"))
    var headers: [String] = []
    @Option(
        name: .customLong("cookie"),
        help: ArgumentHelp("With --dast or --prove: start the session with this cookie (repeatable).", valueName: "name=value"))
    var cookies: [String] = []
    @Option(
        name: .customLong("exclude-url"),
        help: ArgumentHelp("With --dast: never request URL paths matching this glob (repeatable).", valueName: "glob"))
    var excludeURLs: [String] = []
    @Option(
        name: .customLong("dast-checks"),
        help: ArgumentHelp(
            "With --dast: run only these checks, or leave out those with a leading '-' (comma-separated rule ids).",
            valueName: "ids"))
    var dastChecks: [WebCheckList] = []
    @Option(name: .customLong("max-duration"), help: "With --dast or --prove: stop the web scan after this long (default: 10m).")
    var maxDuration: DurationArgument?
    @Option(name: .customLong("max-requests"), help: "With --dast or --prove: send at most this many requests (default: 6000).")
    var maxRequests: Int?
    @Option(help: "With --dast or --prove: at most this many requests per second (default: 40).") var rate: Double?
    @Option(
        name: .customLong("max-requests-per-finding"),
        help: "With --prove: send at most this many requests to prove one finding (default: 100).")
    var maxRequestsPerFinding: Int?
    @Option(help: ArgumentHelp("With --dast: also drive the OWASP ZAP instance whose API is at this URL.", valueName: "url"))
    var zap: String?
    @Option(name: .customLong("zap-key-file"), help: ArgumentHelp("With --zap: the file holding ZAP's API key.", valueName: "file"))
    var zapKeyFile: String?

    @Option(help: "Comma-separated tools to run (default: native,secrets,osv).")
    var tools: ToolList?

    @Option(help: "Output format.") var format: OutputFormat = .text
    @Option(help: "Write the report here instead of standard output.") var output: String?
    @Option(
        name: .customLong("fail-on"),
        help: "Lowest severity that fails the scan, none, or proven (with --prove) (default: the config's failOn, else high).")
    var failOn: Gate?
    @Option(help: "Report only findings not in this baseline file.") var baseline: String?
    @Option(
        name: .customLong("write-baseline"),
        help: "Write every current finding to this baseline file (the findings do not fail the scan).")
    var writeBaseline: String?
    @Option(
        help: ArgumentHelp(
            "A pull request's scan: report only findings on lines changed since this git revision, with its .sentinel.yml, not the tree's.",
            valueName: "rev"))
    var since: String?
    @Option(help: "Config file (default: PATH/.sentinel.yml when present; with --since, the revision's).") var config: String?
    @Flag(
        name: .customLong("no-inline-suppressions"),
        help: "Ignore every suppression comment in the code: nosec, nosemgrep and sentinel: ignore.")
    var noInlineSuppressions = false
    @Flag(
        name: .customLong("require-limits"),
        help: "Fail a sandboxed tool (exit 3) instead of approximating its limits with rlimits when no cgroup can be made.")
    var requireLimits = false
    @Option(
        name: .customLong("max-db-age"),
        help: "Fail (exit 3) when the newest OSV advisory of an ecosystem in use was modified longer ago than this (default: 7d).")
    var maxDatabaseAge: NonNegativeDurationArgument?
    @Flag(
        name: .customLong("allow-stale-db"),
        help: "Scan with OSV data older than --max-db-age (with a warning) instead of failing (exit 3).")
    var allowStaleDatabase = false
    @Flag(
        name: .customLong("allow-missing-db"),
        help: "Skip dependency checks without advisory data (no OSV database, or none for an ecosystem in use) instead of failing (exit 3)."
    )
    var allowMissingDatabase = false

    // Noise control (issue 8): which files, which severities, how much text.
    @Option(name: .customLong("exclude"), help: ArgumentHelp("Leave out files matching this glob (repeatable).", valueName: "glob"))
    var excludes: [String] = []
    @Option(name: .customLong("include"), help: ArgumentHelp("Scan only files matching this glob (repeatable).", valueName: "glob"))
    var includes: [String] = []
    @Flag(
        name: .customLong("no-default-excludes"),
        help: "Also scan tests, virtual environments, vendored and build directories, and generated or minified code.")
    var noDefaultExcludes = false
    @Option(help: ArgumentHelp("Show only findings at or above this severity.", valueName: "level"))
    var severity: Severity?
    @Option(
        name: .customLong("min-confidence"),
        help: ArgumentHelp(
            "Show only findings at or above this confidence (default: the config's minConfidence, else medium).",
            valueName: "level"))
    var minConfidence: Confidence?
    @Flag(name: .shortAndLong, help: "Print only findings and errors.") var quiet = false
    @Flag(name: .shortAndLong, help: "Also print code snippets and each tool's count and time.") var verbose = false
    @Option(
        name: .customLong("sarif-root"),
        help: ArgumentHelp("SARIF paths are relative to this directory (default: the git top level).", valueName: "dir"))
    var sarifRoot: String?
    @Option(name: .customLong("max-file-size"), help: "Skip (and list) files larger than this; K/M/G suffixes (default: 5M).")
    var maxFileSize: SizeArgument?
    @Option(
        name: .customLong("max-file-work"),
        help: ArgumentHelp(
            "Stop analysing a file past this many work units and report it as not analysed (default: \(ScanRequest.defaultMaxFileWork)).",
            valueName: "units"))
    var maxFileWork: Int?
    /// A fleet worker's scan also writes the report itself here, for `fleet results` to render.
    @Option(name: .customLong("fleet-record"), help: .hidden) var fleetRecord: String?

    func run() throws {
        try AnalysisSandbox.enterStartDirectory()
        // A fleet job names its one repository; a path smuggled among its options is refused here,
        // where the parser, not a guess, tells options from paths.
        if fleetRecord != nil, paths.count != 1 {
            throw SentinelError(.invalidInput, "a fleet job scans exactly one directory, its repository")
        }
        let scanPaths = try ScanPaths.resolve(paths)
        let directory = scanPaths.directory
        let web = try dast.map { try webScan(url: $0) }
        if web != nil, prove != nil { throw SentinelError(.invalidInput, "--prove and --dast cannot be used together") }
        let proof = try prove.map { try proofScan(url: $0) }
        if proof != nil, active || openapi != nil || !excludeURLs.isEmpty || !dastChecks.isEmpty || zap != nil {
            throw SentinelError(.invalidInput, "--active, --openapi, --exclude-url, --dast-checks and --zap need --dast URL")
        }
        if web == nil, proof == nil,
            active || openapi != nil || !headers.isEmpty || !cookies.isEmpty || !excludeURLs.isEmpty || !dastChecks.isEmpty
                || maxDuration != nil
                || maxRequests != nil || rate != nil || zap != nil || zapKeyFile != nil
        {
            throw SentinelError(
                .invalidInput,
                "--active, --openapi, --header, --cookie, --exclude-url, --dast-checks, --max-duration, --max-requests, --rate and --zap need --dast URL"
            )
        }
        if let maxRequestsPerFinding {
            guard proof != nil else { throw SentinelError(.invalidInput, "--max-requests-per-finding needs --prove") }
            guard maxRequestsPerFinding > 0 else { throw SentinelError(.invalidInput, "--max-requests-per-finding: must be at least 1") }
        }
        if zapKeyFile != nil && zap == nil { throw SentinelError(.invalidInput, "--zap-key-file needs --zap URL") }
        if quiet && verbose { throw SentinelError(.invalidInput, "--quiet and --verbose cannot be used together") }
        var options = ScanOptions(paths: scanPaths, given: !paths.isEmpty)
        // Past Int.max no file can be larger: the same as no limit.
        options.maxFileBytes = maxFileSize.map { Int(clamping: $0.bytes) }
        if let maxFileWork, maxFileWork < 1 { throw SentinelError(.invalidInput, "--max-file-work must be at least 1") }
        options.maxFileWork = maxFileWork
        // Resolved now, before any scanner runs: a bad path fails at once, and nothing planted at the
        // name during the scan is followed (the report replaces it).
        // In the analysis sandbox the outputs are root's, prepared before it started.
        let analysis = LaunchBrokerClient.servesThisCommand
        let scannedTree = OutputPlacement.realPath(scanPaths.root)
        let trees = scannedTree.map { [$0] } ?? []
        let report =
            analysis
            ? nil
            : try output.map { path in
                try OptionValue.naming("--output") { try PreparedOutputFile(path: path, refusingLinksInside: trees) }
            }
        let baselineOutput =
            analysis
            ? nil
            : try writeBaseline.map { path in
                try OptionValue.naming("--write-baseline") { try PreparedOutputFile(path: path, refusingLinksInside: trees) }
            }
        if !analysis, let tree = scannedTree {
            for (option, file) in [("--output", report), ("--write-baseline", baselineOutput)] {
                if let file, file.isInside(tree) {
                    Console.error("sentinel: warning: \(OutputPlacement.insideWarning(option: option, path: file.path, tree: tree))")
                }
            }
        }

        if AnalysisSandbox.applies {
            do {
                let status = try separatedScan(
                    directory: directory, report: report, baselineOutput: baselineOutput, web: web ?? proof)
                throw ExitCode(status)
            } catch let unavailable as AnalysisSandbox.Unavailable {
                // As before issue 53, and said so: where no sandbox can be made, root reads.
                unavailable.warnRootGoesOn("analysing")
            }
        }

        options.kinds = [(sast, ScannerKind.sast), (sca, .sca), (secrets, .secrets)].filter(\.0).map(\.1)
        options.web = web
        options.prove = proof
        options.zap = zap != nil
        options.tools = tools?.names
        options.configFile = config
        options.environment = ProcessInfo.processInfo.environment
        options.includes = includes
        options.excludes = excludes
        options.noDefaultExcludes = noDefaultExcludes
        options.failOn = failOn
        options.severity = severity
        options.minConfidence = minConfidence
        options.allowMissingDatabase = allowMissingDatabase
        options.allowStaleDatabase = allowStaleDatabase
        options.maxDatabaseAge = maxDatabaseAge?.seconds
        // SARIF URIs and HTML links are relative to the repository root, not the scanned directory.
        let repository =
            format == .sarif || format == .html
            ? try OptionValue.naming("--sarif-root") { try SARIFRoot.resolve(scanDirectory: directory, explicit: sarifRoot) }
            : nil
        options.inlineSuppressions = !noInlineSuppressions
        options.base = try since.map { revision in
            try OptionValue.naming("--since", value: revision) { try BaseRevision.read(in: directory, since: revision) }
        }
        // A pull request may edit a baseline it carries: its scan reads the base revision's.
        options.baseline = try baseline.map { path in
            guard var base = options.base else { return try Baseline.load(path) }
            defer { options.base = base }
            return try OptionValue.naming("--baseline", value: path) { try base.baseline(path, in: directory) }
        }
        let plan = try ScanPlan(options)

        let progress = ProgressReporter.forStderr(quiet: quiet, environment: ProcessInfo.processInfo.environment)
        var sandbox = SandboxRunner()
        sandbox.requireLimits = requireLimits
        sandbox.onNotice = {
            progress.clear(); Console.noticeOnce($0)
        }
        var context = ScanContext(
            sandbox: sandbox, ruleDirectories: plan.config.ruleDirectories,
            databasePath: analysis ? AnalysisResources.osvDatabase() : try StateLocation.current().osvDatabase,
            progress: { progress.show($0) })
        plan.configure(&context)
        context.warn = {
            progress.clear(); Console.error("sentinel: warning: \($0)")
        }
        let runner = ScanRunner(scanners: ScannerRegistry.standard(config: plan.config, web: web))
        let outcome: ScanOutcome
        do {
            defer { progress.stop() }
            outcome = try runner.run(plan.request, context: context)
        }

        if let writeBaseline {
            let data = try Baseline(findings: outcome.report.findings).encoded()
            try AnalysisResources.write(data, slot: Self.baselineSlot, to: baselineOutput)
            let count = outcome.report.findings.count
            Console.error("sentinel: wrote \(count) finding\(count == 1 ? "" : "s") to the baseline \(writeBaseline)")
        }
        let out = ScanReportOutput(
            format: format, toFile: output != nil, stdoutIsTerminal: Console.stdoutIsTerminal,
            verbosity: quiet ? .quiet : verbose ? .verbose : .normal, repository: repository, directory: directory,
            version: SentinelVersion.current, environment: ProcessInfo.processInfo.environment)
        if let fleetRecord {
            let place = try? SARIFRoot.resolve(scanDirectory: directory, explicit: sarifRoot)
            let record = ScanRecord(
                report: outcome.report, directory: directory, repositoryRoot: place?.root, repositoryPrefix: place?.prefix)
            try AnalysisResources.write(
                Data(try record.encoded().utf8), slot: Self.fleetRecordSlot, to: analysis ? nil : try PreparedOutputFile(path: fleetRecord),
                mode: 0o600)
        }
        let rendered = out.renderer().render(outcome.report)
        if output != nil {
            do {
                try AnalysisResources.write(Data(rendered.utf8), slot: Self.outputSlot, to: report)
            } catch let error as SentinelError {
                // Not a findings outcome: the report the user asked for does not exist.
                throw SentinelError(.invalidInput, error.message, errno: error.errno)
            }
        } else if !rendered.isEmpty {
            Console.write(1, rendered.hasSuffix("\n") ? rendered : rendered + "\n")
        }
        for line in out.errorLines(outcome) { Console.error("sentinel: " + line) }
        if output != nil && !quiet {
            Console.error(TextRenderer(color: Console.stderrIsTerminal).summary(outcome.report))
        }
        throw ExitCode(ScanPlan.exitStatus(of: outcome, wroteBaseline: writeBaseline != nil).rawValue)
    }

    static let outputSlot = "output"
    static let baselineSlot = "write-baseline"
    static let fleetRecordSlot = "fleet-record"

    /// As root: the same scan as an unprivileged analysis (`AnalysisSandbox`), over the work
    /// tree holding `directory` (or the directory), writing the outputs prepared here.
    private func separatedScan(
        directory: String, report: PreparedOutputFile?, baselineOutput: PreparedOutputFile?, web: WebScanRequest?
    ) throws -> Int32 {
        // Exactly the directory scanned, unless git must see its work tree (`--since`, and
        // SARIF's and HTML's paths from the top level): no more of the tree is shown.
        let needsTop = since != nil || ((format == .sarif || format == .html) && sarifRoot == nil)
        var analysis = try AnalysisSandbox.over(directory, named: Set(paths)) { directory in
            let real = OutputPlacement.realPath(directory) ?? directory
            return (needsTop ? AnalysisSandbox.workTreeTop(directory) : nil) ?? real
        }
        let repository = analysis.repository ?? directory
        analysis.requireLimits = requireLimits
        analysis.readOnlyFiles = [config, baseline].compactMap { $0 }.map(AnalysisSandbox.absolute).filter {
            !($0 == repository || $0.hasPrefix(repository + "/"))
        }
        if let report { analysis.slots[Self.outputSlot] = { try report.write($0) } }
        if let baselineOutput { analysis.slots[Self.baselineSlot] = { try baselineOutput.write($0) } }
        if let fleetRecord {
            let record = try PreparedOutputFile(path: fleetRecord)
            analysis.slots[Self.fleetRecordSlot] = { try record.write($0, mode: 0o600) }
        }
        let database = try StateLocation.current().osvDatabase
        analysis.resources[AnalysisResources.osvDatabaseName] = database
        analysis.environment[AnalysisResources.osvDatabasePathVariable] = database
        let pod = try web.flatMap { try lendWebScan($0, to: &analysis) }
        defer { pod?.close() }
        return try analysis.run()
    }

    /// What a `--dast` scan's analysis needs of root: root's credentials (a login names them),
    /// its worker's and Wapiti's egress to the target only, a scratch directory for the worker's workspace, ZAP's API through the proxy,
    /// the ZAP key and the OpenAPI file, and (active) the canary's listening socket, made on the
    /// host's side where the target reaches it.
    private func lendWebScan(_ web: WebScanRequest, to analysis: inout AnalysisSandbox) throws -> NetworkPod? {
        analysis.scratch = true
        // A login's fields may name root's variables (`{env: NAME}` in the operator's config).
        analysis.credentials = .passed
        if web.startsApplication {
            // The application and the worker share a network of their own: no egress to lend. The
            // pod's listener is the canary, served here; root never reads what it receives.
            let pod = try NetworkPod.open(name: NativeDASTScanner.podName, listenerPort: ProofApplication.canaryPort)
            analysis.pods = [pod.name]
            analysis.sockets[NativeDASTScanner.canaryResource] = try pod.duplicateListener()
            return pod
        }
        let target = try WebTarget.parse(web.options.target)
        analysis.launchEgress = [Scope(target: target).egressEntry, try WebURL(target: web.options.target).egressEntry]
        if let zap = web.zapURL { analysis.egress += EgressEntry.of(url: zap) }
        if let key = web.zapKeyFile { analysis.resources[Self.zapKeyResource] = AnalysisSandbox.absolute(key) }
        if let openapi { analysis.readOnlyFiles.append(AnalysisSandbox.absolute(openapi)) }
        if web.options.active {
            analysis.sockets[NativeDASTScanner.canaryResource] = try CanaryListener.listeningSocket(
                address: CanaryHost.address(reaching: target))
        }
        return nil
    }

    /// The broker's name of `--zap-key-file`.
    static let zapKeyResource = "zap-key"

    /// The value a bare `--prove` is given (`SentinelMain.bareProveSpelled`): start the application.
    static let startsApplication = "prove.run"

    /// The `--prove` request: the application's URL checked, the headers, cookies and budgets
    /// of `--dast`, the active checks on (each proof sends only its finding's).
    private func proofScan(url: String) throws -> WebScanRequest {
        if url == Self.startsApplication {
            // `--prove` alone: the configuration's `prove.run` is started (the plan fills the target).
            var request = try webScan(url: "http://127.0.0.1/")
            request.startsApplication = true
            request.options.active = true
            request.options.maxRequestsPerProof = maxRequestsPerFinding
            return request
        }
        do {
            var request = try webScan(url: url)
            request.options.active = true
            request.options.maxRequestsPerProof = maxRequestsPerFinding
            return request
        } catch let error as SentinelError where error.message.hasPrefix("--dast: ") {
            // The URL's checks name the option that gave it.
            throw SentinelError(error.code, "--prove: " + error.message.dropFirst("--dast: ".count))
        }
    }

    /// The `--dast` request: the URL checked, the budgets parsed, the OpenAPI seeds read here
    /// (the worker in the sandbox cannot see the file).
    private func webScan(url: String) throws -> WebScanRequest {
        let target = try WebTarget.parse(url)
        _ = try WebTarget.headers(headers)
        var options = WebScanOptions(target: url)
        options.active = active
        options.headers = headers
        options.cookies = cookies
        _ = try WebScanOptions.exclusionGlobs(excludeURLs)
        options.exclude = excludeURLs
        options.checks = try WebCheckSelection(parsing: dastChecks.map(\.text))
        if let maxDuration { options.maxDuration = maxDuration.seconds }
        if let maxRequests {
            guard maxRequests > 0 else { throw SentinelError(.invalidInput, "--max-requests: must be at least 1") }
            options.maxRequests = maxRequests
        }
        if let rate {
            guard rate > 0 else { throw SentinelError(.invalidInput, "--rate: must be more than 0") }
            options.ratePerSecond = rate
        }
        if let openapi { (options.api, options.apiNotices) = try APISeeds.loadWithNotices(path: openapi, base: target) }
        var request = WebScanRequest(options: options, workerExecutable: try SelfExecutable.path())
        request.zapURL = zap
        request.zapKeyFile = zapKeyFile
        // In root's analysis the key comes by root's descriptor, into a private file of its own.
        if let zapKeyFile, let key = try AnalysisSandbox.lentBytes(Self.zapKeyResource, name: zapKeyFile, limit: 4096) {
            let copy = try ScratchDirectory.make(prefix: "sentinel-zap") + "/key"
            try PreparedOutputFile(path: copy).write(key, mode: 0o600)
            request.zapKeyFile = copy
        }
        return request
    }
}
