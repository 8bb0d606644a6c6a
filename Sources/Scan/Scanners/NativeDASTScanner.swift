import Adapters
import DAST
import Findings
import Foundation
import Sandbox
import ScanCore
import Support

/// The native web scanner, confined: `sentinel dast-worker` runs inside the `dast` profile
/// with the target's `host:port` as its only egress entry (the proxy outside the sandbox
/// enforces it), reads its options from a private read-only workspace, and prints its result
/// as JSON. Responses are parsed in there; the parent decodes only that JSON. The parent runs
/// the out-of-band canary and turns the probes the target fetched into findings.
public struct NativeDASTScanner: ScanCore.Scanner {
    /// The sandbox profile the worker runs under.
    public static let defaultProfile = "dast"
    /// Every value the operator gave the scan to authenticate with: login fields, header values
    /// and their part after a scheme (`Bearer X`: X), cookie values.
    static func credentialValues(of options: WebScanOptions) -> [String] {
        var values = options.login.map { Array($0.fields.values) } ?? []
        for header in (try? WebTarget.headers(options.headers)) ?? [] {
            values.append(header.value)
            if let space = header.value.firstIndex(of: " ") {
                values.append(String(header.value[header.value.index(after: space)...]).trimmingCharacters(in: .whitespaces))
            }
        }
        for cookie in options.cookies {
            values.append(cookie)
            if let equals = cookie.firstIndex(of: "=") { values.append(String(cookie[cookie.index(after: equals)...])) }
        }
        return values
    }

    /// Where the worker's options file is inside the sandbox.
    static let optionsPath = "/workspace/options.json"

    /// `dast`, what `--tools` selects it by.
    public let name = DAST.toolName
    /// Dynamic analysis.
    public let kind = ScannerKind.dast
    /// What to scan and how.
    public var options: WebScanOptions
    /// The `sentinel` binary to run as the worker (bound read-only into the sandbox).
    public var workerExecutable: String
    /// The sandbox profile (a name or a path).
    public var profile: String
    /// Runs the worker; `nil` runs it in the context's sandbox.
    public var executor: (any ToolExecutor)?
    /// Seconds to wait after the scan for late out-of-band fetches.
    public var canaryGrace: Double = 1
    /// An application to start first (`scan --prove` without a URL) over the tree at `root`:
    /// it and the worker then share a network pod, the worker's only peer and the canary's place.
    public var application: (declaration: ProofApplication, root: String)?

    /// A scanner for `options`, running `workerExecutable` as its worker.
    public init(options: WebScanOptions, workerExecutable: String, profile: String = defaultProfile, executor: (any ToolExecutor)? = nil) {
        self.options = options
        self.workerExecutable = workerExecutable
        self.profile = profile
        self.executor = executor
    }

    /// A URL target always applies.
    public func applies(to target: ScanTarget) -> Bool { true }

    /// Why the worker cannot run: its binary is missing.
    public func unavailableReason(context: ScanContext) -> String? {
        FileManager.default.isExecutableFile(atPath: workerExecutable)
            ? nil : "dast: the worker binary \(workerExecutable) is missing"
    }

    /// Scans the target in the sandbox. Throws `.invalidInput` for a bad URL or a target that
    /// does not answer, `.toolFailed` when the worker fails.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let (result, hits) = try runWorker(context: context)
        return output(result, canaryHits: hits)
    }

    /// The worker's run in the sandbox, and the canary's hits (token: what fetched it) once the
    /// grace for late fetches is over. Throws as ``scan(_:context:)``.
    func runWorker(context: ScanContext) throws -> (Outcome, [String: String]) {
        let start = try WebTarget.parse(options.target)
        _ = try WebTarget.headers(options.headers)
        var options = self.options
        if let application { return try runBeside(application.declaration, root: application.root, options: options, context: context) }
        options.proxy = "http://127.0.0.1:\(EgressLaunch.port)"
        var canaryHost = CanaryHost.address(reaching: start)
        var canary: CanaryListener?
        if options.active, LaunchBrokerClient.servesThisCommand {
            // In root's analysis: the analysis has no host network; root made the listener where
            // the target reaches this host and lent it.
            let fd = try LaunchBrokerClient.open(resource: Self.canaryResource)
            canary = try CanaryListener(listening: fd)
            canaryHost = CanaryHost.localAddress(of: fd) ?? canaryHost
        } else if options.active {
            canary = try CanaryListener(address: canaryHost)
        }
        defer { canary?.stop() }
        if let canary { options.canary = canary.base(host: canaryHost) }

        let result = try ScratchDirectory.with { scratch in
            var invocation = try workerInvocation(in: scratch, options: options, timeout: options.maxDuration + 60)
            invocation.networkAllow = [Scope(target: start).egressEntry]
            return try run(invocation, context: context)
        }
        if let fatal = result.worker.fatal { throw SentinelError(.invalidInput, "\(Self.optionName(options)): \(fatal)") }
        return (result, afterGrace(result, canary: canary))
    }

    /// The canary's hits once a target that fetched a probe's URL late (a queued job, a slow
    /// parser) has had the grace to.
    private func afterGrace(_ result: Outcome, canary: CanaryListener?) -> [String: String] {
        let probes = result.worker.probes.count + result.worker.proofs.reduce(0) { $0 + $1.probes.count }
        if canary != nil, probes > 0 { Thread.sleep(forTimeInterval: canaryGrace) }
        return canary?.tokens ?? [:]
    }

    /// The name of the network pod a proof's application and worker share.
    public static let podName = "prove"

    /// `runWorker` for an application it starts: `application` in its sandbox (profile `app`)
    /// and the worker in its, both members of one network pod (root made it for its analysis;
    /// made here when this process is the launcher). The worker reaches the application at
    /// 127.0.0.1 with no proxy, waits for it to answer, and its SSRF probes name the canary, the
    /// pod's listener root serves. The application is stopped when the worker ends.
    private func runBeside(
        _ application: ProofApplication, root: String, options: WebScanOptions, context: ScanContext
    ) throws -> (Outcome, [String: String]) {
        var options = options
        options.proxy = nil
        options.readyPath = application.readyPath
        options.readySeconds = application.waitSeconds
        var podName = Self.podName
        var madePod: NetworkPod?
        if !LaunchBrokerClient.isActive {
            podName = "prove-\(getpid())-\(UInt32.random(in: 0 ... .max))"
            madePod = try NetworkPod.open(name: podName, listenerPort: ProofApplication.canaryPort)
        }
        defer { madePod?.close() }
        let listener =
            try madePod?.duplicateListener() ?? LaunchBrokerClient.open(resource: Self.canaryResource)
        let canary = try CanaryListener(listening: listener)
        defer { canary.stop() }
        options.canary = canary.base(host: "127.0.0.1")
        // An application (or its database) that ends leaves the worker nothing to ask: it is stopped too.
        let worker = LaunchHandle()
        let seconds = options.maxDuration + application.waitSeconds + 120
        let result = try ScratchDirectory.with { scratch in
            var invocation = try workerInvocation(in: scratch, options: options, timeout: seconds - 60)
            invocation.pod = podName
            var command = application.argv
            var environment = application.environment
            var database: ApplicationRun?
            defer { database?.stop() }
            if let declared = application.database {
                guard let binaries = ProofDatabase.binaries() else {
                    throw SentinelError(.invalidInput, "--prove: prove.database needs PostgreSQL's server (Debian's postgresql package)")
                }
                // Its own empty directory: the worker's options are not the database's to read.
                let empty = try Self.directory(scratch + "/database")
                database = try ApplicationRun(
                    command: declared.serverCommand(binaries: binaries), environment: declared.serverEnvironment(binaries: binaries),
                    root: empty, pod: podName, seconds: seconds, context: context, onEnd: { worker.terminate(signal: SIGKILL) })
                command = declared.waitingFor(command, binaries: binaries, seconds: application.waitSeconds)
                environment = declared.clientEnvironment.merging(environment) { _, declaredForTheApplication in
                    declaredForTheApplication
                }
            }
            let app = try ApplicationRun(
                command: command, environment: environment, directory: application.directory, root: root, pod: podName,
                seconds: seconds, context: context, credentials: Self.credentialValues(of: options),
                onEnd: { worker.terminate(signal: SIGKILL) })
            defer { app.stop() }
            func ended() -> String? {
                if let ending = database?.ending { return "its database (prove.database) \(ending)" }
                return app.ending.map { "it \($0)" }
            }
            let outcome: Outcome
            do {
                outcome = try run(
                    invocation, context: context, executor: executor ?? SandboxToolExecutor(runner: context.sandbox, handle: worker))
            } catch {
                guard let ending = ended() else { throw error }
                throw SentinelError(.invalidInput, "--prove: the application 'prove.run' starts ended before the proof did: \(ending)")
            }
            if let fatal = outcome.worker.fatal {
                if let ending = ended() {
                    throw SentinelError(.invalidInput, "--prove: the application 'prove.run' starts ended before the proof did: \(ending)")
                }
                guard fatal.contains(WebScan.notUp) else { throw SentinelError(.invalidInput, "--prove: \(fatal)") }
                throw SentinelError(.invalidInput, "--prove: the application 'prove.run' starts did not answer: \(fatal)")
            }
            return outcome
        }
        return (result, afterGrace(result, canary: canary))
    }

    /// The worker's run over a workspace of its own in `scratch` holding `options` (read-only to
    /// it at `optionsPath`), for at most `timeout` seconds.
    private func workerInvocation(in scratch: String, options: WebScanOptions, timeout: Double) throws -> ToolInvocation {
        let workspace = try Self.directory(scratch + "/worker")
        try PreparedOutputFile(path: workspace + "/options.json").write(try JSONEncoder().encode(options), mode: 0o644)
        return ToolInvocation(
            profile: profile, command: [workerExecutable, "dast-worker", Self.optionsPath], workspace: workspace,
            extraReadOnly: [workerExecutable] + RuntimeLibraries.directories(), timeout: timeout)
    }

    /// `path`, made (mode 0755); throws `.io` naming it.
    private static func directory(_ path: String) throws -> String {
        guard mkdir(path, 0o755) == 0 else { throw SentinelError(.io, "\(path): cannot create: \(Errno.current)", errno: .current) }
        return path
    }

    /// The option that named the target: `--prove` for a proof, else `--dast`.
    static func optionName(_ options: WebScanOptions) -> String { options.proofs.isEmpty ? "--dast" : "--prove" }

    /// The broker's name of the canary's listening socket, made by root for its analysis.
    public static let canaryResource = "dast-canary"

    struct Outcome {
        var worker: WebScanResult
        var run: RunResult
    }

    private func run(_ invocation: ToolInvocation, context: ScanContext, executor: (any ToolExecutor)? = nil) throws -> Outcome {
        let result = try AdapterRun.execute(
            tool: name, invocation: invocation, executor: executor ?? self.executor ?? SandboxToolExecutor(runner: context.sandbox))
        guard result.exitCode == 0 else { throw ToolFailure.failed(result, tool: name, detail: nil) }
        do {
            return Outcome(worker: try JSONDecoder().decode(WebScanResult.self, from: result.stdout), run: result)
        } catch {
            throw SentinelError(.toolFailed, "dast: the worker's result is not valid JSON (\(result.stdout.count) bytes)")
        }
    }

    /// The findings (in-band and out-of-band), rules, and notices on budget, egress and scope.
    private func output(_ outcome: Outcome, canaryHits: [String: String]) -> ScannerOutput {
        let worker = outcome.worker
        var findings = worker.findings.filter { $0.tool == DAST.toolName }
        let confirmed = Set(findings.map { "\($0.ruleId)|\($0.location.url ?? "")|\($0.location.parameter ?? "")" })
        for probe in worker.probes where canaryHits[probe.token] != nil {
            let key = "\(probe.finding.ruleId)|\(probe.finding.location.url ?? "")|\(probe.finding.location.parameter ?? "")"
            guard !confirmed.contains(key), !findings.contains(where: { $0.fingerprint == probe.finding.fingerprint }) else {
                continue
            }
            var finding = probe.finding
            finding.evidence = (finding.evidence ?? "") + "\nCanary: \(canaryHits[probe.token] ?? "")"
            findings.append(finding)
        }
        // What the operator handed the scan to get in -- the login's values, `--header` values
        // (and the token after an auth scheme), `--cookie` values -- never leaves the process,
        // whatever the answers echoed (a password in a page, a header quoted as evidence).
        let credentials = Redactor(secrets: Self.credentialValues(of: options), shapes: false)
        findings = findings.map { finding in
            var finding = finding
            finding.message = credentials.redact(finding.message)
            finding.evidence = finding.evidence.map(credentials.redact)
            finding.snippet = finding.snippet.map(credentials.redact)
            return finding
        }
        let used = Set(findings.map(\.ruleId))
        var notices = worker.notices.map { Notice(level: .info, message: credentials.redact($0), tool: name) }
        if !worker.requestsByCheck.isEmpty {
            let counts = worker.requestsByCheck.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
            notices.append(
                Notice(
                    level: .info, message: "requests by check: " + counts.map { "\($0.key) \($0.value)" }.joined(separator: ", "),
                    tool: name))
        }
        if worker.stoppedBy != "complete" {
            notices.append(Notice(level: .warning, message: "the scan was cut short by its \(worker.stoppedBy)", tool: name))
        }
        notices += EgressNotices.notices(outcome.run.egress, tool: name)
        if !worker.outOfScope.isEmpty {
            notices.append(
                Notice(level: .info, message: "\(worker.outOfScope.count) out-of-scope links were not followed", tool: name))
        }
        var output = ScannerOutput(
            findings: findings, rules: WebRules.all.filter { used.contains($0.ruleId) }.map(\.descriptor),
            tool: ToolRun(
                name: name, status: .succeeded,
                message: "\(worker.requests) requests, \(worker.pages) pages, \(worker.endpoints) endpoints, "
                    + "\(worker.insertionPoints) parameters tested"),
            notices: notices)
        output.tool.durationSeconds = Double(outcome.run.wallMilliseconds) / 1000
        return output
    }
}
