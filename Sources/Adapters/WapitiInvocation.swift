import Foundation
import Sandbox
import ScanCore
import Support
import Web

/// The command line `WapitiScanner` runs in the sandbox: a shell that runs Wapiti with its log
/// on stderr and then prints the report from the tmpfs on stdout.
extension WapitiScanner {
    /// Where Wapiti writes its report inside the sandbox (the tmpfs).
    static let reportPath = "/tmp/wapiti/report.json"
    /// Variables that keep Wapiti's session, config and caches in the tmpfs.
    public static let environment: [String: String] = [
        "HOME": "/tmp/home",
        "XDG_CONFIG_HOME": "/tmp/home/.config",
        "XDG_CACHE_HOME": "/tmp/home/.cache",
        "XDG_DATA_HOME": "/tmp/home/.local/share",
    ]
    /// Runs Wapiti (`$2...`) with its log on stderr, then prints its report (`$1`) on stdout.
    static let script =
        #"mkdir -p "$HOME" /tmp/wapiti || exit 70; report=$1; shift; "$@" >&2; status=$?;"#
        + #" if [ "$status" -eq 0 ]; then cat -- "$report"; fi; exit "$status""#

    /// The modules to run.
    public var selectedModules: [String] {
        modules ?? (active ? Self.passiveModules + Self.activeModules : Self.passiveModules)
    }

    /// The sandboxed command scanning `target` over the (empty) `workspace`.
    /// - Throws: `SentinelError(.invalidInput)` for a module name that is not one.
    public func invocation(for target: WebURL, workspace: String, context: ScanContext) throws -> ToolInvocation {
        let modules = selectedModules
        if let bad = modules.first(where: { $0.isEmpty || !$0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") } }) {
            throw SentinelError(.invalidInput, "wapiti module '\(bad)': not a module name (letters, digits, _)")
        }
        let installation = installation(context: context)
        let seconds = Self.format(maxDuration)
        var wapiti = [
            installation.executable, "-u", target.string, "--scope", scope.rawValue, "-m", modules.joined(separator: ","),
            "--flush-session", "--no-bugreport", "-f", "json", "-o", Self.reportPath,
            "--store-session", "/tmp/wapiti/session", "--store-config", "/tmp/wapiti/config",
            "--proxy", "http://127.0.0.1:\(EgressLaunch.port)/", "--max-scan-time", seconds, "--max-attack-time", seconds,
            "-v", "1",
        ]
        wapiti += WapitiLogin.exclusions(target: target.string, paths: exclude)
        var environment = Self.environment
        if let login, login.format == .form {
            guard let value = WapitiLogin.environmentValue(login, target: target.string) else {
                throw SentinelError(.invalidInput, "dast.login: Wapiti's login needs a user name field and a password field")
            }
            environment[WapitiLogin.variable] = value
            wapiti += ["--form-script", "/workspace/" + WapitiLogin.scriptName] + WapitiLogin.exclusions(target: target.string)
        }
        return ToolInvocation(
            profile: profile, command: ["/bin/sh", "-c", Self.script, "wapiti-run", Self.reportPath] + wapiti,
            workspace: workspace, extraReadOnly: installation.extraReadOnly, environment: environment,
            timeout: maxDuration + 120, networkAllow: [target.egressEntry])
    }

    static func format(_ seconds: Double) -> String {
        let value = max(1, seconds)
        return value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}
