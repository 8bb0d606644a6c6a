import DAST
import Findings
import Foundation
import Sandbox
import ScanCore
import Support
import Web

/// Wapiti (DAST) run inside the sandbox with the `scan-wapiti` profile against one URL. Its
/// only egress is the sandbox's proxy, allowed exactly the target's `host:port` for the run;
/// nothing else is reachable. A loopback or private target must be given by its address
/// (`http://127.0.0.1:8080/`): the entry then names private space explicitly, while a host name
/// that resolves to private space is refused by the proxy. Passive modules only unless
/// `active`; the proxy's log of what Wapiti reached (and was refused) is reported as notices.
/// No update checks or bug reports leave the sandbox (`--no-bugreport`; no `wapp` module).
///
/// The report never touches the host's filesystem: Wapiti writes it to the sandbox's tmpfs and
/// a shell in the sandbox prints it on stdout once Wapiti has exited (Wapiti's own log goes to
/// stderr). The parent reads it from the captured, size-bounded stdout, so there is no file a
/// compromised Wapiti could swap for a symbolic link or a FIFO, and no writable workspace: the
/// workspace is an empty directory mounted read-only.
public struct WapitiScanner: ScanCore.Scanner {
    /// The sandbox profile Wapiti runs under.
    public static let defaultProfile = "scan-wapiti"
    /// Modules that only read the responses of a crawl: headers, cookie flags, CSP. (`methods`
    /// sends PUT and DELETE, `https_redirect` and `ssl` reach other ports: not passive.)
    public static let passiveModules = ["http_headers", "cookieflags", "csp"]
    /// Modules an active scan adds: they send attacks. Modules that need Wapiti's external
    /// endpoint (ssrf, xxe, log4shell) or other hosts (wapp, nikto updates) are left out.
    public static let activeModules = [
        "xss", "permanentxss", "sql", "exec", "file", "redirect", "crlf", "csrf", "upload", "ldap", "methods",
    ]
    /// How far Wapiti may wander from the target URL.
    public enum Scope: String, Sendable, CaseIterable {
        /// The target URL's directory and below (Wapiti's default).
        case folder
        /// The whole host (other hosts stay unreachable: the proxy allows the target alone).
        case domain
    }

    /// `wapiti`, what `--tools` selects it by.
    public let name = ToolName.wapiti
    /// Dynamic analysis.
    public let kind = ScannerKind.dast
    /// Opt-in: it needs a target URL.
    public let isDefault = false
    /// The URL scanned.
    public var targetURL: String
    /// Whether attack modules run.
    public var active: Bool
    /// Seconds Wapiti may scan (`--max-scan-time`, and `--max-attack-time` per module); the
    /// sandbox's limit is two minutes more, for the report.
    public var maxDuration: Double
    /// How far Wapiti crawls.
    public var scope: Scope
    /// Wapiti modules to run instead of the passive (or active) set.
    public var modules: [String]?
    /// The sandbox profile (a name or a path); it must use `network: proxy`.
    public var profile: String
    /// The venv holding Wapiti; `nil`: `wapiti` beside the context's tools venv
    /// (`/opt/sentinel-tools/wapiti`, what `scripts/install-tools.sh` makes).
    public var toolsDirectory: String?
    /// Runs the tool; `nil` runs it in the context's sandbox.
    public var executor: (any ToolExecutor)?
    /// The operator's form login (`dast.login`), done Wapiti's way (``WapitiLogin``); nil: none.
    public var login: WebLogin?
    /// URL path globs never requested (`--exclude-url`), given to Wapiti as `-x` wildcards.
    public var exclude: [String] = []

    /// - Parameters:
    ///   - targetURL: the http(s) URL to scan.
    ///   - active: run attack modules too.
    ///   - maxDuration: seconds Wapiti may scan.
    ///   - scope: `folder` (default) or `domain`.
    ///   - modules: Wapiti modules to run instead of the default set.
    ///   - profile: the sandbox profile, a name or a path.
    ///   - toolsDirectory: Wapiti's venv; `nil` for the default.
    ///   - executor: runs the tool; `nil` runs it in the context's sandbox.
    public init(
        targetURL: String, active: Bool = false, maxDuration: Double = 600, scope: Scope = .folder,
        modules: [String]? = nil, profile: String = defaultProfile, toolsDirectory: String? = nil,
        executor: (any ToolExecutor)? = nil
    ) {
        self.targetURL = targetURL
        self.active = active
        self.maxDuration = maxDuration
        self.scope = scope
        self.modules = modules
        self.profile = profile
        self.toolsDirectory = toolsDirectory
        self.executor = executor
    }

    /// Always: the target is a URL, not files.
    public func applies(to target: ScanTarget) -> Bool { true }

    /// Wapiti's venv for `context`.
    public func installation(context: ScanContext) -> ToolInstallation {
        ToolInstallation(tool: name, directory: toolsDirectory ?? Self.defaultDirectory(besides: context.toolsDirectory))
    }

    /// Where `scripts/install-tools.sh` puts Wapiti's venv: `wapiti` beside the tools venv.
    public static func defaultDirectory(besides toolsDirectory: String) -> String {
        PathText.directory(of: toolsDirectory) + "/wapiti"
    }

    /// Why Wapiti cannot run: not installed, its venv not visible in the sandbox, or a profile
    /// without the egress proxy (Wapiti would reach nothing).
    public func unavailableReason(context: ScanContext) -> String? {
        if let reason = installation(context: context).unavailableReason(profile: profile, context: context) {
            return reason
        }
        if let loaded = try? context.sandbox.profiles.resolve(profile), loaded.network.mode != .proxy {
            return "wapiti needs a profile with network: proxy; profile \(loaded.name) has none"
        }
        return nil
    }

    /// Runs Wapiti against `targetURL` in the sandbox; `target` (files) is not used. Throws
    /// `SentinelError(.invalidInput)` for a bad URL, `.toolFailed` when Wapiti is missing,
    /// fails, times out or leaves no readable report.
    public func scan(_ target: ScanTarget, context: ScanContext) throws -> ScannerOutput {
        let web = try WebURL(target: targetURL)
        if let reason = unavailableReason(context: context) { throw SentinelError(.toolFailed, reason) }
        let workspace = try ScratchDirectory.make(prefix: "sentinel-wapiti")
        defer { try? FileManager.default.removeItem(atPath: workspace) }
        // Empty but for the login plug-in (no secret: the values come in its environment), mounted
        // read-only; the payload's uid must be able to enter it (its cwd).
        chmod(workspace, 0o755)
        if login != nil {
            try PreparedOutputFile(path: workspace + "/" + WapitiLogin.scriptName).write(Data(WapitiLogin.script.utf8), mode: 0o644)
        }
        let invocation = try invocation(for: web, workspace: workspace, context: context)
        context.progress(.started(tool: name, files: 1))
        let result = try AdapterRun.execute(
            tool: name, invocation: invocation, executor: executor ?? SandboxToolExecutor(runner: context.sandbox))
        guard result.exitCode == 0 else {
            throw SentinelError(
                .toolFailed, "wapiti failed: \(WapitiFailure.reason(result.stderr) ?? "exit status \(result.exitCode)")")
        }
        var output: ScannerOutput
        do {
            output = try WapitiReport.parse(data: result.stdout, targetURL: web.string)
        } catch let error as SentinelError where error.code == .toolFailed {
            guard let reason = WapitiFailure.reason(result.stderr) else { throw error }
            throw SentinelError(.toolFailed, "\(error.message) (\(reason))")
        }
        output.tool.version = output.tool.version ?? installation(context: context).packageVersion("wapiti3")
        output.tool.durationSeconds = Double(result.wallMilliseconds) / 1000
        output.notices = EgressNotices.notices(result.egress, tool: name) + output.notices
        if let login, login.format != .form {
            let message = "dast.login with format \(login.format.rawValue) is not given to Wapiti (it logs in through forms only)"
            output.notices.append(Notice(level: .warning, message: message, tool: name))
        }
        context.progress(.finished(tool: name, findings: output.findings.count))
        return output
    }
}
