import CSystem
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The pipes between the launcher and the payload's stdin, stdout and stderr. The payload never
/// holds the caller's own file descriptions, so it cannot seek, truncate or re-flag them.
/// Whatever descriptor is still held here when the value goes away is closed.
final class StdioPipes {
    private var stdinPipe: [Int32] = [-1, -1]
    private var stdoutPipe: [Int32] = [-1, -1]
    private var stderrPipe: [Int32] = [-1, -1]

    /// Makes the stdout and stderr pipes when `needed` (not with a pty), and the stdin pipe
    /// when `stdin` too (`-i` without a pty; otherwise the payload reads /dev/null). `input`:
    /// the payload's stdin is a sealed memfd holding these bytes, read at its own pace, so no
    /// writer on our side can block on a payload that never reads.
    init(needed: Bool, stdin: Bool, input: [UInt8]? = nil) throws {
        guard needed else { return }
        guard csys_pipe2(&stdoutPipe, O_CLOEXEC) == 0, csys_pipe2(&stderrPipe, O_CLOEXEC) == 0,
            !stdin || csys_pipe2(&stdinPipe, O_CLOEXEC) == 0
        else {
            throw SentinelError.sandboxSetup(stage: "pipe2", errno: .current)
        }
        if let input, !stdin { stdinPipe[0] = try Self.memfd(holding: input) }
    }

    /// A sealed, rewound memfd holding `bytes`.
    private static func memfd(holding bytes: [UInt8]) throws -> Int32 {
        let fd = csys_memfd("sentinel-stdin")
        guard fd >= 0 else { throw SentinelError.sandboxSetup(stage: "memfd_create", errno: .current) }
        if let failure = bytes.withUnsafeBytes({ writeAll(fd, $0) }) {
            close(fd)
            throw SentinelError.sandboxSetup(stage: "write(stdin)", errno: failure)
        }
        guard csys_memfd_seal(fd) == 0, lseek(fd, 0, SEEK_SET) == 0 else {
            let failure = Errno.current
            close(fd)
            throw SentinelError.sandboxSetup(stage: "memfd seal", errno: failure)
        }
        return fd
    }

    deinit {
        for fd in stdinPipe + stdoutPipe + stderrPipe where fd >= 0 { close(fd) }
    }

    /// The ends the payload gets (-1: none).
    var payloadStdin: Int32 { stdinPipe[0] }
    var payloadStdout: Int32 { stdoutPipe[1] }
    var payloadStderr: Int32 { stderrPipe[1] }

    /// Once the init has its copies, the payload's ends live on in the sandbox only: an end
    /// kept here would hold the pipe open and the relay would never see end-of-file.
    func closePayloadEnds() {
        for fd in [stdoutPipe[1], stderrPipe[1], stdinPipe[0]] where fd >= 0 { close(fd) }
        stdoutPipe[1] = -1
        stderrPipe[1] = -1
        stdinPipe[0] = -1
    }

    /// The streams the waiter moves: the captured stdout and stderr (`relay` false), the pty's
    /// (`master` ≥ 0), or stdout and stderr relayed to the caller's plus the caller's stdin
    /// relayed in. The waiter owns the descriptors from here on.
    func streams(relay: Bool, master: Int32, interactive: Bool, outputLimit: UInt64) -> [ByteStream] {
        defer {
            stdoutPipe[0] = -1
            stderrPipe[0] = -1
            stdinPipe[1] = -1
        }
        if !relay {
            return [stdoutPipe[0], stderrPipe[0]].map {
                ByteStream(source: $0, sink: .capture(limit: outputLimit), isOutput: true, ownsSource: true)
            }
        }
        if master >= 0 {
            return TerminalRelay.streams(master: master, interactive: interactive)
        }
        var streams = [
            ByteStream(source: stdoutPipe[0], sink: .descriptor(1), isOutput: true, ownsSource: true),
            ByteStream(source: stderrPipe[0], sink: .descriptor(2), isOutput: true, ownsSource: true),
        ]
        if stdinPipe[1] >= 0 {
            // Our own pipe end: non-blocking so a payload that never reads cannot stall us.
            _ = fcntl(stdinPipe[1], F_SETFL, fcntl(stdinPipe[1], F_GETFL) | O_NONBLOCK)
            streams.append(
                ByteStream(
                    source: 0, sink: .descriptor(stdinPipe[1]), isOutput: false,
                    ownsSource: false, endAction: .closeSink))
        }
        return streams
    }
}
