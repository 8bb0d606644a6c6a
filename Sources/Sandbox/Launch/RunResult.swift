import FoundationEssentials
import Support

/// How a sandboxed run ended and what it cost.
public struct RunResult: Sendable {
    /// Why a run ended, as `--status-json` spells it.
    public enum Reason: String, Sendable, Codable {
        case exited, signaled, timeout, oom
        case setupFailed = "setup-failed"
    }

    /// The status `sentinel sandbox run` exits with (DESIGN §3).
    public var exitCode: Int32
    /// The signal that ended the payload, when one did.
    public var signal: Int32?
    /// Why the run ended.
    public var reason: Reason
    /// On setup failure: the stage name and errno.
    public var stage: String?
    /// On setup failure: the errno of the failed call (nil when the stage set none).
    public var errno: Int32?
    /// Wall-clock time from launch to the end of the tree.
    public var wallMilliseconds: Int
    /// Wall-clock time of the command alone, from its `execve` to its exit as the sandbox's init
    /// saw it, in microseconds: what is not the sandbox's own set-up and tear-down. Nil when the
    /// command did not start or its ending was not seen (a timeout, a stop).
    public var commandMicroseconds: Int?
    /// CPU time of the whole tree (the cgroup's, else the init's rusage).
    public var cpuMilliseconds: Int
    /// Peak memory of the tree (the cgroup's high-water mark, else the init's max RSS); nil when unknown.
    public var peakMemoryBytes: UInt64?
    /// Captured output (empty when inherited), each cut at the profile's `outputBytes`.
    public var stdout: Data
    /// Captured stderr (empty when inherited).
    public var stderr: Data
    /// Whether stdout was cut at the output limit.
    public var stdoutTruncated: Bool
    /// Whether stderr was cut at the output limit.
    public var stderrTruncated: Bool
    /// Egress decisions, in order, when the profile uses the proxy.
    public var egress: [EgressSummary]
    /// An `rw` workspace whose changes could not all be committed back (the run then exits 125);
    /// the changes applied before the failure stay applied.
    public var workspaceCommitFailure: SentinelError?

    /// A result; `RunEnding.of` decides the exit code, reason and signal of a real run.
    public init(
        exitCode: Int32, signal: Int32? = nil, reason: Reason, stage: String? = nil, errno: Int32? = nil,
        wallMilliseconds: Int = 0, cpuMilliseconds: Int = 0, peakMemoryBytes: UInt64? = nil,
        stdout: Data = Data(), stderr: Data = Data(), stdoutTruncated: Bool = false,
        stderrTruncated: Bool = false, egress: [EgressSummary] = []
    ) {
        self.exitCode = exitCode
        self.signal = signal
        self.reason = reason
        self.stage = stage
        self.errno = errno
        self.wallMilliseconds = wallMilliseconds
        self.cpuMilliseconds = cpuMilliseconds
        self.peakMemoryBytes = peakMemoryBytes
        self.stdout = stdout
        self.stderr = stderr
        self.stdoutTruncated = stdoutTruncated
        self.stderrTruncated = stderrTruncated
        self.egress = egress
    }

    /// The `--status-json` object (DESIGN §3), keys sorted for stable output.
    public func statusJSON() -> Data {
        struct Status: Encodable {
            var exitCode: Int32
            var signal: Int32?
            var reason: Reason
            var stage: String?
            var errno: Int32?
            var wallMs: Int
            var cpuMs: Int
            var peakMemoryBytes: UInt64?
            var egress: [EgressSummary]

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(exitCode, forKey: .exitCode)
                try container.encode(signal, forKey: .signal)
                try container.encode(reason, forKey: .reason)
                if let stage { try container.encode(stage, forKey: .stage) }
                if let errno { try container.encode(errno, forKey: .errno) }
                try container.encode(wallMs, forKey: .wallMs)
                try container.encode(cpuMs, forKey: .cpuMs)
                try container.encode(peakMemoryBytes, forKey: .peakMemoryBytes)
                try container.encode(egress, forKey: .egress)
            }
            enum CodingKeys: String, CodingKey {
                case exitCode, signal, reason, stage, errno, wallMs, cpuMs, peakMemoryBytes, egress
            }
        }
        let status = Status(
            exitCode: exitCode, signal: signal, reason: reason, stage: stage, errno: errno,
            wallMs: wallMilliseconds, cpuMs: cpuMilliseconds, peakMemoryBytes: peakMemoryBytes,
            egress: egress)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return (try? encoder.encode(status)) ?? Data("{}".utf8)
    }
}

/// One egress decision as `--status-json` reports it.
public struct EgressSummary: Sendable, Codable, Equatable {
    /// The host the payload asked for, as it named it.
    public var host: String
    /// The port it asked for.
    public var port: Int
    /// Whether the policy allowed the connection.
    public var allowed: Bool
    /// Bytes relayed both ways (0 when denied).
    public var bytes: UInt64
    /// The allow or deny entry that decided it, or the reason (`no rule matches`, `private address ... not allowed`).
    public var rule: String?
    /// The address actually connected to, when allowed.
    public var address: String?

    /// A summary of one decision; see the properties.
    public init(host: String, port: Int, allowed: Bool, bytes: UInt64, rule: String? = nil, address: String? = nil) {
        self.host = host
        self.port = port
        self.allowed = allowed
        self.bytes = bytes
        self.rule = rule
        self.address = address
    }
}
