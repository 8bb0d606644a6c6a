import Egress
import FoundationEssentials
import Support

/// What the analysis sandbox asks its root launcher for, one call per connection. The frame's
/// body carries the bytes: a launch's stdin, a write's content.
enum BrokerCall: Codable, Sendable {
    /// Run a sandbox (an adapter, git): the launcher checks it against its `BrokerPolicy`.
    case launch(BrokeredLaunch)
    /// Write the body to the output the launcher prepared under this name (`--output`).
    case write(slot: String)
    /// Send a descriptor of a file the launcher named (the OSV database).
    case open(resource: String)
}

/// A `SandboxRequest` as it crosses: values only. Callbacks stay on the analysis side, fed from
/// the reply; the handle is the connection (closing it stops the run).
struct BrokeredLaunch: Codable, Sendable {
    var profile: Profile
    var command: [String]
    var workspace: String?
    var workspaceMountPoint: String
    var workingDirectory: String?
    var extraReadOnly: [String]
    var callerEnvironment: [String: String]
    var environment: [String: String]
    var hasInput: Bool
    var requireLimits: Bool
    /// The network pod the launch joins (`BrokerPolicy.pods` names those it may).
    var pod: String?

    init(_ request: SandboxRequest) {
        profile = request.profile
        command = request.command
        workspace = request.workspace
        workspaceMountPoint = request.workspaceMountPoint
        workingDirectory = request.workingDirectory
        extraReadOnly = request.extraReadOnly
        callerEnvironment = request.callerEnvironment
        environment = request.environment
        hasInput = request.input != nil
        requireLimits = request.requireLimits
        pod = request.pod
    }
}

/// The launcher's answer to a call.
enum BrokerReply: Codable, Sendable {
    /// A launch ended; the body is its stdout followed by its stderr.
    case launched(BrokeredRun)
    /// A write was made, or the descriptor rides with this frame.
    case done
    /// The call was refused or failed: the error to throw on the analysis side.
    case failed(code: String, exitStatus: Int32, message: String)

    init(_ error: SentinelError) {
        self = .failed(code: error.code.rawValue, exitStatus: error.code.exitStatus, message: error.message)
    }
}

/// A `RunResult` without its output bytes, plus what the callbacks were told during the run.
struct BrokeredRun: Codable, Sendable {
    var exitCode: Int32
    var signal: Int32?
    var reason: RunResult.Reason
    var stage: String?
    var errno: Int32?
    var wallMilliseconds: Int
    var commandMicroseconds: Int?
    var cpuMilliseconds: Int
    var peakMemoryBytes: UInt64?
    var stdoutCount: Int
    var stdoutTruncated: Bool
    var stderrTruncated: Bool
    var egress: [EgressSummary]
    var commitFailure: String?
    var notices: [String]
    var warnings: [String]
    var denied: [EgressRecord]

    init(_ result: RunResult, notices: [String], warnings: [String], denied: [EgressRecord]) {
        exitCode = result.exitCode
        signal = result.signal
        reason = result.reason
        stage = result.stage
        errno = result.errno
        wallMilliseconds = result.wallMilliseconds
        commandMicroseconds = result.commandMicroseconds
        cpuMilliseconds = result.cpuMilliseconds
        peakMemoryBytes = result.peakMemoryBytes
        stdoutCount = result.stdout.count
        stdoutTruncated = result.stdoutTruncated
        stderrTruncated = result.stderrTruncated
        egress = result.egress
        commitFailure = result.workspaceCommitFailure?.message
        self.notices = notices
        self.warnings = warnings
        self.denied = denied
    }

    /// The result, with `output` (stdout then stderr) split back.
    func result(output: Data) throws -> RunResult {
        guard stdoutCount >= 0, stdoutCount <= output.count else {
            throw BrokerChannel.failure("a reply whose stdout length exceeds its body")
        }
        var result = RunResult(
            exitCode: exitCode, signal: signal, reason: reason, stage: stage, errno: errno,
            wallMilliseconds: wallMilliseconds, cpuMilliseconds: cpuMilliseconds, peakMemoryBytes: peakMemoryBytes,
            stdout: Data(output.prefix(stdoutCount)), stderr: Data(output.dropFirst(stdoutCount)),
            stdoutTruncated: stdoutTruncated, stderrTruncated: stderrTruncated, egress: egress)
        result.commandMicroseconds = commandMicroseconds
        result.workspaceCommitFailure = commitFailure.map { SentinelError(.io, $0) }
        return result
    }
}
