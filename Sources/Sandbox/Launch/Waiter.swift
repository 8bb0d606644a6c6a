#if canImport(Glibc)
    import Glibc
#endif
import CSandbox
import FoundationEssentials
import Support

/// Waits for the sandbox init to report the payload's status while moving the payload's
/// stdio (`ByteStream`s: captured, or relayed to and from the caller), and kills the whole
/// tree at the deadline (pid 1 dying tears the pid namespace down).
struct Waiter {
    let pid: pid_t
    let statusFD: Int32
    private(set) var streams: [ByteStream]

    var payloadStatus: Int32?
    /// The payload's own run, from its execve to its exit, in nanoseconds, as the init timed it
    /// (`sbx_payload_end`): the launcher learns of either end only when it is next scheduled.
    var payloadRun: UInt64?
    var timedOut = false

    /// How long output may still drain after the tree was killed at the deadline, and after
    /// a caller asked to stop (a stuck reader must not keep a stopping launcher alive).
    static let drainAfterTimeout: UInt64 = 5_000_000_000
    static let drainAfterStop: UInt64 = 1_000_000_000

    init(pid: pid_t, statusFD: Int32, streams: [ByteStream]) {
        self.pid = pid
        self.statusFD = statusFD
        self.streams = streams
    }

    /// The captured bytes of stream `index` (capture mode: 0 is stdout, 1 is stderr).
    func captured(_ index: Int) -> (data: Data, truncated: Bool) {
        guard index < streams.count else { return (Data(), false) }
        return (streams[index].captured, streams[index].truncated)
    }

    /// Runs until the status is in and every output stream has ended; closes the streams.
    /// `stopRequested` tells whether a caller has asked the run to stop.
    mutating func wait(until deadline: UInt64?, stopRequested: () -> Bool = { false }) {
        // A caller that closed its end of a relay pipe must not kill the launcher with
        // SIGPIPE; the write fails with EPIPE instead. The signal a failed write raises is
        // directed at this thread, so blocking it here is enough.
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var previousMask = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previousMask)
        defer {
            var zero = timespec()
            while sigtimedwait(&pipeOnly, nil, &zero) > 0 {}
            pthread_sigmask(SIG_SETMASK, &previousMask, nil)
            for index in streams.indices { streams[index].close() }
        }
        loop(until: deadline, stopRequested: stopRequested)
    }

    private enum Slot { case status, read(Int), write(Int) }

    private mutating func loop(until deadline: UInt64?, stopRequested: () -> Bool) {
        var statusOpen = true
        var statusBytes: [UInt8] = []
        var killedAt: UInt64?
        var drainWindow = Self.drainAfterTimeout
        while statusOpen || streams.contains(where: { $0.isOutput && !$0.finished }) {
            let now = MonotonicClock.nanoseconds()
            if let deadline, killedAt == nil, now >= deadline {
                timedOut = payloadStatus == nil
                kill(pid, SIGKILL)
                killedAt = now
            }
            if !statusOpen, killedAt == nil, stopRequested() {
                killedAt = now
                drainWindow = Self.drainAfterStop
            }
            // Once the tree is dead the pipes close; never wait on them forever regardless.
            if let killedAt, now - killedAt > drainWindow { break }
            var timeout: Int32 = -1
            if let deadline, killedAt == nil { timeout = Int32(min(1000, (deadline - now) / 1_000_000 + 1)) }
            if killedAt != nil { timeout = 100 }

            var fds: [pollfd] = []
            var slots: [Slot] = []
            if statusOpen {
                fds.append(pollfd(fd: statusFD, events: Int16(POLLIN), revents: 0))
                slots.append(.status)
            }
            for (index, stream) in streams.enumerated() {
                if stream.wantsRead {
                    fds.append(pollfd(fd: stream.source, events: Int16(POLLIN), revents: 0))
                    slots.append(.read(index))
                }
                if stream.wantsWrite {
                    fds.append(pollfd(fd: stream.writeFD, events: Int16(POLLOUT), revents: 0))
                    slots.append(.write(index))
                }
            }
            // A retry after an interruption waits only what is left of `timeout`, so the
            // deadline checks above still run on time.
            let polled = MonotonicClock.nanoseconds()
            let result = retryingOnInterrupt {
                poll(&fds, nfds_t(fds.count), Self.remaining(timeout, since: polled))
            }
            guard case .success(let ready) = result else { break }
            guard ready > 0 else { continue }
            for (entry, slot) in zip(fds, slots) where entry.revents != 0 {
                switch slot {
                case .status:
                    var buffer = [UInt8](repeating: 0, count: 2 * MemoryLayout<sbx_payload_end>.size)
                    let fd = statusFD
                    if case .success(let count) = retryingOnInterrupt({ read(fd, &buffer, buffer.count) }), count > 0 {
                        statusBytes.append(contentsOf: buffer[..<count])
                        if payloadStatus == nil, statusBytes.count >= MemoryLayout<sbx_payload_end>.size {
                            let end = statusBytes.withUnsafeBytes { $0.loadUnaligned(as: sbx_payload_end.self) }
                            payloadStatus = end.status
                            payloadRun = end.ended_ns >= end.started_ns ? end.ended_ns - end.started_ns : 0
                        }
                    } else {
                        statusOpen = false
                        // The payload is gone: read no more of the caller's input.
                        for index in streams.indices where !streams[index].isOutput { streams[index].abandon() }
                    }
                case .read(let index):
                    // A write slot of the same stream later in this pass sees the new bytes.
                    if streams[index].wantsRead { streams[index].readSource() }
                case .write(let index):
                    if streams[index].wantsWrite { streams[index].writeSink() }
                }
            }
        }
    }

    /// What is left of a poll timeout of `milliseconds` (-1: none) begun at `start` (uptime ns).
    private static func remaining(_ milliseconds: Int32, since start: UInt64) -> Int32 {
        guard milliseconds >= 0 else { return -1 }
        let elapsed = (MonotonicClock.nanoseconds() - start) / 1_000_000
        return Int32(max(0, Int64(milliseconds) - Int64(clamping: elapsed)))
    }
}
