import Foundation
import Sandbox
import Support

/// Turns a profile plus a command into a plan and runs it; shared by `sandbox run`,
/// `doctor` and the scanners' adapters.
enum SandboxSession {
    static func run(profile: Profile, command: [String], workspace: String?, extraReadOnly: [String] = [],
                    output: LaunchOptions.Output, handle: LaunchHandle? = nil) throws -> RunResult {
        let request = LaunchRequest(profile: profile, command: command, workspace: workspace,
                                    extraReadOnly: extraReadOnly,
                                    callerEnvironment: ProcessInfo.processInfo.environment)
        var options = LaunchOptions(profile: profile, output: output)
        options.onWarning = { Console.error("sentinel: warning: \($0)") }
        options.handle = handle
        if profile.network.mode == .proxy {
            throw SentinelError(.unsupported, "network mode 'proxy' is not available yet")
        }
        let plan = try LaunchPlan.make(request, newRoot: options.newRoot)
        return try Launcher.run(plan, options: options)
    }
}
