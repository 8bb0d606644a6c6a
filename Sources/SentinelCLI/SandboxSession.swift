import Foundation
import Sandbox
import Support

/// Turns a profile plus a command into a plan and runs it; shared by `sandbox run`,
/// `doctor` and the scanners' adapters.
enum SandboxSession {
    static func run(profile: Profile, command: [String], workspace: String?, extraReadOnly: [String] = [],
                    output: LaunchOptions.Output, handle: LaunchHandle? = nil, interactive: Bool = false,
                    terminal: Bool = false, requireLimits: Bool = false) throws -> RunResult {
        var options = LaunchOptions(profile: profile, output: output)
        options.interactive = interactive
        options.terminal = terminal
        options.onWarning = { Console.error("sentinel: warning: \($0)") }
        options.onNotice = { Console.noticeOnce($0) }
        options.requireLimits = requireLimits
        options.handle = handle
        let proxyVariables = try EgressLaunch.configure(&options, network: profile.network) { record in
            Console.error(record.denialLine)
        }
        var request = LaunchRequest(profile: profile, command: command, workspace: workspace,
                                    extraReadOnly: extraReadOnly,
                                    callerEnvironment: ProcessInfo.processInfo.environment,
                                    extraEnvironment: proxyVariables)
        request.terminal = terminal
        return try NewRootDirectory.with { root in
            try Launcher.run(try LaunchPlan.make(request, newRoot: root), options: options)
        }
    }
}
