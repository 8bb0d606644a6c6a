#if canImport(Glibc)
    import Glibc
#endif

/// The zero-copy variant of `Relay`: bytes move socket → pipe → socket with `splice(2)`
/// and never enter user space. Same contract: exact counts, half-close, idle timeout,
/// stop, byte budget.
struct SpliceRelay {
    static let pipeSize = 1 << 18

    let client: Int32
    let upstream: Int32
    let stopFd: Int32
    let idleTimeoutMs: Int32
    let budget: ByteBudget
    let splice: Splice.Function

    private struct Direction {
        let from: Int32
        let to: Int32
        let name: String
        let pipeRead: Int32
        let pipeWrite: Int32
        let capacity: Int
        var inPipe = 0
        var readClosed = false
        var writeShut = false
        var limitHit = false
        var bytes = 0
        /// Bytes this direction may still read; `nil` for no cap.
        var remaining: Int?

        var wantsRead: Bool { !readClosed && !limitHit && inPipe < capacity && remaining != 0 }
        /// Capped and fully delivered: nothing more will be written, but no half-close either.
        var capped: Bool { remaining == 0 && inPipe == 0 }
        var hasPending: Bool { inPipe > 0 }
        var finished: Bool { (readClosed || limitHit) && inPipe == 0 }
    }

    /// Runs the relay; `nil` when pipes cannot be made (the caller falls back to `Relay`).
    /// `initialToUpstream` is written with `send` first; `upstreamLimit` as in `Relay.run`.
    func run(initialToUpstream: [UInt8], upstreamLimit: Int? = nil) -> Relay.Outcome? {
        guard let upPipe = Splice.pipe(size: SpliceRelay.pipeSize) else { return nil }
        guard let downPipe = Splice.pipe(size: SpliceRelay.pipeSize) else {
            close(upPipe.read)
            close(upPipe.write)
            return nil
        }
        defer {
            for fd in [upPipe.read, upPipe.write, downPipe.read, downPipe.write] { close(fd) }
        }
        var outcome = Relay.Outcome()
        let initial = Array(initialToUpstream.prefix(upstreamLimit ?? Int.max))
        if !initial.isEmpty {
            let granted = budget.reserve(initial.count)
            let head = Array(initial.prefix(granted))
            guard SocketIO.writeAll(upstream, head, timeoutMs: idleTimeoutMs, stopFd: stopFd) else {
                outcome.error = "write to upstream failed"
                return outcome
            }
            outcome.bytesOut = head.count
            if granted < initial.count {
                outcome.error = "total byte limit reached"
                return outcome
            }
        }
        var up = Direction(
            from: client, to: upstream, name: "client", pipeRead: upPipe.read, pipeWrite: upPipe.write,
            capacity: upPipe.capacity, remaining: upstreamLimit.map { $0 - initial.count })
        var down = Direction(
            from: upstream, to: client, name: "upstream", pipeRead: downPipe.read, pipeWrite: downPipe.write,
            capacity: downPipe.capacity)

        loop: while true {
            for index in 0..<2 {
                var direction = index == 0 ? up : down
                var error = flush(&direction)
                if direction.finished && !direction.writeShut {
                    shutdown(direction.to, Int32(SHUT_WR))
                    direction.writeShut = true
                    if direction.limitHit { error = "total byte limit reached" }
                }
                if direction.capped { direction.writeShut = true }
                if index == 0 { up = direction } else { down = direction }
                if let error {
                    outcome.error = error
                    break loop
                }
            }
            if up.writeShut && down.writeShut { break }

            let clientEvents = (up.wantsRead ? Int16(POLLIN) : 0) | (down.hasPending ? Int16(POLLOUT) : 0)
            let upstreamEvents = (down.wantsRead ? Int16(POLLIN) : 0) | (up.hasPending ? Int16(POLLOUT) : 0)
            let ready: (client: Int16, upstream: Int16)
            switch RelayPoll.wait(stopFd: stopFd, client: client, clientEvents: clientEvents, upstream: upstream,
                                  upstreamEvents: upstreamEvents, timeoutMs: idleTimeoutMs) {
            case .retry: continue
            case .end(let reason):
                outcome.error = reason
                break loop
            case .ready(let clientRevents, let upstreamRevents):
                ready = (clientRevents, upstreamRevents)
            }
            if let error = fill(&up, revents: ready.client) ?? fill(&down, revents: ready.upstream) {
                outcome.error = error
                break
            }
        }
        outcome.bytesOut += up.bytes
        outcome.bytesIn = down.bytes
        return outcome
    }

    /// Moves what the source has into the pipe, within the byte budget.
    private func fill(_ direction: inout Direction, revents: Int16) -> String? {
        guard direction.wantsRead, revents != 0 else { return nil }
        let space = min(direction.capacity - direction.inPipe, direction.remaining ?? Int.max)
        let granted = budget.reserve(space)
        guard granted > 0 else {
            direction.limitHit = true
            return nil
        }
        let n = splice(direction.from, nil, direction.pipeWrite, nil, granted, Splice.move | Splice.nonBlocking)
        if n > 0 {
            budget.refund(granted - n)
            direction.inPipe += n
            if let remaining = direction.remaining { direction.remaining = remaining - n }
            // The budget, not the source, ended this read: nothing more may pass.
            if granted < space && n == granted { direction.limitHit = true }
            return nil
        }
        budget.refund(granted)
        if n == 0 {
            direction.readClosed = true
        } else if errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR {
            return "read from \(direction.name): \(String(cString: strerror(errno)))"
        }
        return nil
    }

    /// Moves what the pipe holds to the destination; stops at EAGAIN.
    private func flush(_ direction: inout Direction) -> String? {
        while direction.hasPending {
            let n = splice(
                direction.pipeRead, nil, direction.to, nil, direction.inPipe, Splice.move | Splice.nonBlocking)
            if n > 0 {
                direction.inPipe -= n
                direction.bytes += n
                continue
            }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return nil }
            let target = direction.name == "client" ? "upstream" : "client"
            return "write to \(target): \(n == 0 ? "closed" : String(cString: strerror(errno)))"
        }
        return nil
    }
}
