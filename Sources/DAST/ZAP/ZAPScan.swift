import Documents
import Findings
import Foundation
import Support

/// One scan through a running ZAP: check the API (`core/view/version`), optionally access the
/// target, spider it, wait for the passive scanner, optionally run the active scanner, then
/// read the alerts for the target page by page. Polls until each scan reports 100 or the
/// deadline passes; on the deadline it stops the running scan and reports what ZAP found so
/// far, with a notice saying the scan was cut short.
public enum ZAPScan {
    /// What a scan produced.
    public struct Result: Sendable {
        /// ZAP's version (`2.15.0`).
        public var version: String
        /// One finding per distinct alert.
        public var findings: [Finding]
        /// One descriptor per plugin seen.
        public var rules: [RuleDescriptor]
        /// Things to tell the user: a scan cut short, alerts left unread, dropped alerts.
        public var notices: [Notice]
        /// False when the deadline stopped a scan before it finished.
        public var completed: Bool
    }

    /// Runs the scan `options` describe through `client`.
    /// - Parameters:
    ///   - secret: the API key, redacted from every text ZAP sends back.
    ///   - progress: told each step as it starts (`spider`, `active scan`, `alerts`).
    /// - Throws: `SentinelError(.toolFailed)` from the client when a step fails.
    public static func run(
        _ options: ZAPScanOptions, client: ZAPClient, secret: String? = nil,
        progress: @Sendable (String) -> Void = { _ in }
    ) throws -> Result {
        let version = try client.call("core/view/version")["version"]?.string
        guard let version else { throw missing("version", step: "core/view/version") }
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(0, options.maxDuration) * 1000))
        var notices: [Notice] = []
        if options.accessFirst {
            do {
                _ = try client.call("core/action/accessUrl", [("url", options.targetURL), ("followRedirects", "true")])
            } catch let error as SentinelError {
                notices.append(Notice(level: .warning, message: error.message, tool: ZAPAlertMapping.tool))
            }
        }
        let poller = ZAPPoller(client: client, deadline: deadline, interval: options.pollInterval)
        progress("spider")
        let spider = try scanId(
            client.call(
                "spider/action/scan",
                [
                    ("url", options.targetURL), ("maxChildren", String(options.maxChildren)), ("recurse", "true"),
                    ("subtreeOnly", "true"),
                ]), step: "spider/action/scan")
        var cutShort = try poller.waitFor(scan: "spider", id: spider)
        if cutShort == nil { cutShort = try poller.waitForPassiveScan() }
        if cutShort == nil, options.active {
            progress("active scan")
            let active = try scanId(
                client.call(
                    "ascan/action/scan", [("url", options.targetURL), ("recurse", "true"), ("inScopeOnly", "false")]),
                step: "ascan/action/scan")
            cutShort = try poller.waitFor(scan: "ascan", id: active)
        }
        if let cutShort {
            notices.append(
                Notice(
                    level: .warning,
                    message: "zap: the scan was cut short at its \(seconds(options.maxDuration)) s deadline (\(cutShort));"
                        + " the findings are what ZAP had found by then",
                    tool: ZAPAlertMapping.tool))
        }
        progress("alerts")
        let (alerts, unread) = try ZAPAlertPages.read(client: client, options: options)
        let mapped = ZAPAlertMapping.map(alerts.alerts, secret: secret)
        notices += alertNotices(mapped, skipped: alerts.skipped, unread: unread, limit: options.maxAlerts)
        return Result(
            version: ZAPText.oneLine(version, limit: 40, secret: secret), findings: mapped.findings, rules: mapped.rules,
            notices: notices, completed: cutShort == nil)
    }

    static func scanId(_ answer: DocumentNode, step: String) throws -> String {
        guard let id = answer["scan"]?.scalarText, !id.isEmpty, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw missing("scan", step: step)
        }
        return id
    }

    static func missing(_ field: String, step: String) -> SentinelError {
        SentinelError(.toolFailed, "zap: \(step): the answer has no '\(field)' field")
    }

    static func seconds(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }

    private static func alertNotices(_ mapped: ZAPAlertMapping.Result, skipped: Int, unread: Bool, limit: Int) -> [Notice] {
        var notices: [Notice] = []
        func add(_ level: Notice.Level, _ message: String) {
            notices.append(Notice(level: level, message: message, tool: ZAPAlertMapping.tool))
        }
        if mapped.falsePositives > 0 { add(.info, "zap: \(mapped.falsePositives) alert(s) marked False Positive were dropped") }
        if skipped > 0 { add(.warning, "zap: \(skipped) alert(s) without a pluginId or url were skipped") }
        if unread { add(.warning, "zap: more than \(limit) alerts; the rest were not read") }
        return notices
    }
}
