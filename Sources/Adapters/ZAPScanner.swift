import DAST
import Findings
import Foundation
import ScanCore
import Support
import Web

/// OWASP ZAP driven over its JSON API: spider the target (and, with `active`, attack it), then
/// read ZAP's alerts into findings `zap.<pluginId>`.
///
/// ZAP runs **outside** Sentinel's sandbox: it is the user's own service (a daemon or a
/// container they started), and Sentinel only talks to its API at `apiURL`. So ZAP's egress is
/// not confined by Sentinel's proxy; point it at targets you may scan. The API key is read from
/// `apiKeyFile`, sent only in the `X-ZAP-API-Key` header, and redacted from anything ZAP sends
/// back before it reaches an error, a notice or a finding.
public struct ZAPScanner: ScanCore.Scanner {
    /// `zap`, what `--tools` selects it by.
    public let name = ToolName.zap
    /// Dynamic analysis.
    public let kind = ScannerKind.dast
    /// Opt-in: it needs a running ZAP and a target URL.
    public let isDefault = false
    /// The URL ZAP scans.
    public var targetURL: String
    /// ZAP's API (`http://127.0.0.1:8090`).
    public var apiURL: String
    /// The file holding the API key; `nil` for a ZAP whose API key is disabled.
    public var apiKeyFile: String?
    /// Whether ZAP's active scanner attacks the target after the spider.
    public var active: Bool
    /// The whole scan's deadline, seconds.
    public var maxDuration: Double
    /// Seconds between status polls.
    public var pollInterval: Double
    /// How the API is reached (libcurl unless a test says otherwise).
    public var transport: any ZAPTransport

    /// - Parameters:
    ///   - targetURL: the http(s) URL to scan.
    ///   - apiURL: ZAP's API base URL.
    ///   - apiKeyFile: a regular file (at most 4 KB) holding the API key; `nil` sends none.
    ///   - active: run the active scanner too.
    ///   - maxDuration: seconds before the scans are stopped and the alerts so far reported.
    ///   - pollInterval: seconds between status polls.
    ///   - transport: sends the API requests.
    public init(
        targetURL: String, apiURL: String, apiKeyFile: String?, active: Bool = false, maxDuration: Double = 600,
        pollInterval: Double = 2, transport: any ZAPTransport = ZAPHTTPTransport()
    ) {
        self.targetURL = targetURL
        self.apiURL = apiURL
        self.apiKeyFile = apiKeyFile
        self.active = active
        self.maxDuration = maxDuration
        self.pollInterval = pollInterval
        self.transport = transport
    }

    /// Always: the target is a URL, not files.
    public func applies(to target: ScanTarget) -> Bool { true }

    /// Runs the ZAP scan. Throws `SentinelError(.invalidInput)` for a bad URL or key file,
    /// `SentinelError(.toolFailed)` when ZAP cannot be reached or a step fails.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let web = try WebURL(target: targetURL)
        let key = try apiKeyFile.map(ZAPAPIKey.read)
        let client = try ZAPClient(apiURL: apiURL, apiKey: key, transport: transport)
        let options = ZAPScanOptions(
            targetURL: web.string, active: active, maxDuration: maxDuration, pollInterval: pollInterval)
        context.progress(.started(tool: name, files: 1))
        let started = ContinuousClock.now
        let name = name
        let result = try ZAPScan.run(options, client: client, secret: key) { context.progress(.step(tool: name, $0)) }
        let elapsed = started.duration(to: .now)
        var output = ScannerOutput(
            findings: result.findings, rules: result.rules,
            tool: ToolRun(name: name, version: result.version, informationURI: ZAPAlertMapping.informationURI),
            notices: result.notices)
        output.tool.durationSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        context.progress(.finished(tool: name, findings: output.findings.count))
        return output
    }
}
