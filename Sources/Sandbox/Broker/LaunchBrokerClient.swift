#if canImport(Glibc)
    import Glibc
#endif
import CSystem
import FoundationEssentials
import Support
import Synchronization

/// The analysis sandbox's side of `LaunchBroker`: set when the root launcher started this
/// process with `SENTINEL_LAUNCH_BROKER`, and then the only way it launches a sandbox, writes
/// an output the command line named, or opens the launcher's files. One connection per call.
public enum LaunchBrokerClient {
    /// The socket's path, when this process runs under a broker.
    public static let socketPath: String? = {
        guard let value = getenv(LaunchBroker.environmentVariable) else { return nil }
        let path = String(cString: value)
        return path.isEmpty ? nil : path
    }()

    /// Whether this process runs under a broker (the analysis sandbox).
    public static var isActive: Bool { socketPath != nil }

    /// Set by root for the command it started as the analysis.
    public static let commandVariable = "SENTINEL_ANALYSIS_COMMAND"

    /// Whether root prepared this process's outputs (slots) and inputs (resources): the command
    /// root started as its analysis. A command that analysis starts in turn (a fleet worker's
    /// jobs, which run without `commandVariable`) still launches through the broker, and writes
    /// and reads its own files.
    public static var servesThisCommand: Bool { isActive && getenv(commandVariable) != nil }

    /// Runs `request` through the broker (see `BrokerPolicy` for what it refuses).
    static func launch(_ request: SandboxRequest, socket path: String) throws -> RunResult {
        guard case .capture = request.output, !request.interactive, !request.terminal else {
            throw SentinelError(.invalidInput, "launch broker: a brokered launch captures its output")
        }
        let channel = try connect(path)
        try channel.send(BrokerCall.launch(BrokeredLaunch(request)), body: Data(request.input ?? []))
        // A handle stops the run as the launcher's own does: hanging up makes the launcher kill it.
        let fd = channel.fd
        let observing = request.handle.map { handle in (handle, handle.whenTerminated { shutdown(fd, Int32(SHUT_RDWR)) }) }
        defer {
            // Until no stop can run: it shuts the descriptor down, which must still be this channel's.
            observing.map { handle, token in handle.stopObserving(token) }
            withExtendedLifetime(channel) {}
        }
        let outputBound = Int(min(request.profile.limits.outputBytes ?? 256 << 20, 1 << 30))
        guard let reply = try channel.receive(BrokerReply.self, maxBody: 2 * outputBound + (1 << 20)) else {
            throw BrokerChannel.failure("the launcher closed the connection")
        }
        if let stray = reply.descriptor { close(stray) }
        switch reply.header {
        case .launched(let run):
            let result = try run.result(output: reply.body)
            run.notices.forEach(request.onNotice)
            run.warnings.forEach(request.onWarning)
            run.denied.forEach(request.onEgressDenied)
            return result
        case .failed(let code, let exitStatus, let message):
            throw SentinelError(.init(code, exitStatus: exitStatus), message)
        case .done:
            throw BrokerChannel.failure("an unexpected reply to a launch")
        }
    }

    /// Writes `data` to the output the launcher prepared as `slot`.
    public static func write(slot: String, _ data: Data, socket: String? = socketPath) throws {
        guard let path = socket else { throw BrokerChannel.failure("not running under a broker") }
        let channel = try connect(path)
        try channel.send(BrokerCall.write(slot: slot), body: data)
        try expectDone(channel, holding: false)
    }

    /// A read-only descriptor of the launcher's file `resource` (the caller closes it).
    public static func open(resource: String, socket: String? = socketPath) throws -> Int32 {
        guard let path = socket else { throw BrokerChannel.failure("not running under a broker") }
        let channel = try connect(path)
        try channel.send(BrokerCall.open(resource: resource))
        guard let fd = try expectDone(channel, holding: true) else {
            throw BrokerChannel.failure("no descriptor came for \(resource)")
        }
        return fd
    }

    @discardableResult
    private static func expectDone(_ channel: BrokerChannel, holding: Bool) throws -> Int32? {
        guard let reply = try channel.receive(BrokerReply.self, maxBody: 0) else {
            throw BrokerChannel.failure("the launcher closed the connection")
        }
        switch reply.header {
        case .done:
            if !holding, let stray = reply.descriptor { close(stray) }
            return holding ? reply.descriptor : nil
        case .failed(let code, let exitStatus, let message):
            if let stray = reply.descriptor { close(stray) }
            throw SentinelError(.init(code, exitStatus: exitStatus), message)
        case .launched:
            if let stray = reply.descriptor { close(stray) }
            throw BrokerChannel.failure("an unexpected reply")
        }
    }

    private static func connect(_ path: String) throws -> BrokerChannel {
        let fd = csys_unix_connect(path)
        guard fd >= 0 else { throw BrokerChannel.failure("cannot connect to \(path): \(Errno.current)", errno: .current) }
        return BrokerChannel(fd: fd)
    }
}
