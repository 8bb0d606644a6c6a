import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Copies bytes both ways between a client and its upstream until both sides have
/// finished, with one poll loop, a large buffer per direction, exact counts and correct
/// half-close: when one side stops sending, the other side's write half is shut down.
struct Relay {
    struct Outcome {
        var bytesOut = 0
        var bytesIn = 0
        var error: String?
    }

    static let bufferSize = 256 * 1024

    let client: Int32
    let upstream: Int32
    let stopFd: Int32
    let idleTimeoutMs: Int32
    let budget: ByteBudget

    /// One direction: bytes read from `from` wait in `buffer[start..<end]` until written to `to`.
    private struct Direction {
        let from: Int32
        let to: Int32
        let name: String
        var buffer: UnsafeMutableRawBufferPointer
        var start = 0
        var end = 0
        var readClosed = false
        var writeShut = false
        var limitHit = false
        var bytes = 0
        /// Bytes this direction may still read; `nil` for no cap.
        var remaining: Int?

        var wantsRead: Bool { !readClosed && start == end && remaining != 0 }
        /// Capped and fully delivered: nothing more will be written, but no half-close either.
        var capped: Bool { remaining == 0 && start == end }
        var hasPending: Bool { start < end }
    }

    /// Runs the relay; `initialToUpstream` (a rewritten head, early tunnel bytes) is sent first.
    /// With `upstreamLimit`, at most that many bytes (initial ones included) go upstream;
    /// then the client is no longer read, and the upstream is not shut down (servers may
    /// take a half-close for an abort).
    func run(initialToUpstream: [UInt8], upstreamLimit: Int? = nil) -> Outcome {
        var up = Direction(
            from: client, to: upstream, name: "client",
            buffer: .allocate(byteCount: max(Relay.bufferSize, initialToUpstream.count), alignment: 16))
        var down = Direction(
            from: upstream, to: client, name: "upstream",
            buffer: .allocate(byteCount: Relay.bufferSize, alignment: 16))
        defer {
            up.buffer.deallocate()
            down.buffer.deallocate()
        }
        let initial = initialToUpstream.prefix(upstreamLimit ?? Int.max)
        up.buffer.copyBytes(from: initial)
        up.end = initial.count
        up.remaining = upstreamLimit.map { $0 - initial.count }

        var outcome = Outcome()
        loop: while true {
            for index in 0..<2 {
                var direction = index == 0 ? up : down
                if let error = flush(&direction) { outcome.error = error }
                if direction.readClosed && !direction.hasPending && !direction.writeShut {
                    shutdown(direction.to, Int32(SHUT_WR))
                    direction.writeShut = true
                }
                if direction.capped { direction.writeShut = true }
                if index == 0 { up = direction } else { down = direction }
                if outcome.error != nil { break loop }
            }
            if up.writeShut && down.writeShut { break }

            let clientEvents = (up.wantsRead ? Int16(POLLIN) : 0) | (down.hasPending ? Int16(POLLOUT) : 0)
            let upstreamEvents = (down.wantsRead ? Int16(POLLIN) : 0) | (up.hasPending ? Int16(POLLOUT) : 0)
            let ready: (client: Int16, upstream: Int16)
            switch RelayPoll.wait(
                stopFd: stopFd, client: client, clientEvents: clientEvents, upstream: upstream,
                upstreamEvents: upstreamEvents, timeoutMs: idleTimeoutMs)
            {
            case .end(let reason):
                outcome.error = reason
                break loop
            case .ready(let clientRevents, let upstreamRevents):
                ready = (clientRevents, upstreamRevents)
            }
            if let error = fill(&up, readable: ready.client) ?? fill(&down, readable: ready.upstream) {
                outcome.error = error
                break
            }
        }
        outcome.bytesOut = up.bytes
        outcome.bytesIn = down.bytes
        return outcome
    }

    /// Reads into an empty buffer when the source reported anything (data, EOF or error).
    private func fill(_ direction: inout Direction, readable revents: Int16) -> String? {
        guard direction.wantsRead, revents != 0 else { return nil }
        let (from, buffer, count) =
            (direction.from, direction.buffer.baseAddress, min(direction.buffer.count, direction.remaining ?? Int.max))
        switch retryingOnInterrupt({ recv(from, buffer, count, 0) }) {
        case .success(0):
            direction.readClosed = true
        case .success(let n):
            let granted = budget.reserve(n)
            direction.start = 0
            direction.end = granted
            direction.limitHit = granted < n
            if let remaining = direction.remaining { direction.remaining = remaining - granted }
        case .failure(let error) where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK:
            break
        case .failure(let error):
            return "read from \(direction.name): \(error.message)"
        }
        return nil
    }

    /// Writes what is pending; stops at EAGAIN (the loop then waits for POLLOUT).
    private func flush(_ direction: inout Direction) -> String? {
        while direction.hasPending {
            let n = SocketIO.send(
                direction.to, direction.buffer.baseAddress! + direction.start, direction.end - direction.start)
            if n < 0 {
                let target = direction.name == "client" ? "upstream" : "client"
                return "write to \(target): \(String(cString: strerror(errno)))"
            }
            if n == 0 { return nil }
            direction.start += n
            direction.bytes += n
        }
        direction.start = 0
        direction.end = 0
        return direction.limitHit ? "total byte limit reached" : nil
    }
}
