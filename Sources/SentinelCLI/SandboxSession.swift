import Foundation
import Sandbox
import Support

/// Turns a profile plus a command into a plan and runs it; shared by `sandbox run`,
/// `doctor` and the scanners' adapters.
enum SandboxSession {
    static func run(profile: Profile, command: [String], workspace: String?, extraReadOnly: [String] = [],
                    output: LaunchOptions.Output, handle: LaunchHandle? = nil,
                    requireLimits: Bool = false) throws -> RunResult {
        var options = LaunchOptions(profile: profile, output: output)
        options.onWarning = { Console.error("sentinel: warning: \($0)") }
        options.onNotice = { Console.noticeOnce($0) }
        options.requireLimits = requireLimits
        options.handle = handle
        let proxyVariables = try EgressLaunch.configure(&options, network: profile.network) { record in
            Console.error(record.denialLine)
        }
        let request = LaunchRequest(profile: profile, command: command, workspace: workspace,
                                    extraReadOnly: extraReadOnly,
                                    callerEnvironment: ProcessInfo.processInfo.environment,
                                    extraEnvironment: proxyVariables)
        return try NewRootDirectory.with { root in
            try Launcher.run(try LaunchPlan.make(request, newRoot: root), options: options)
        }
    }
}
