import Support

#if canImport(Glibc)
    import Glibc
#endif

/// The wait the relay makes between transfers: the stop pipe, and each side for what it is
/// waiting on.
enum RelayPoll {
    enum Outcome {
        /// Revents of the client and the upstream socket.
        case ready(client: Int16, upstream: Int16)
        /// The relay must end, with this as its error.
        case end(String)
    }

    static func wait(
        stopFd: Int32, client: Int32, clientEvents: Int16, upstream: Int32, upstreamEvents: Int16,
        timeoutMs: Int32
    ) -> Outcome {
        // A descriptor with nothing to wait for is left out: its HUP would otherwise spin the loop.
        var fds = [
            pollfd(fd: stopFd, events: Int16(POLLIN), revents: 0),
            pollfd(fd: clientEvents == 0 ? -1 : client, events: clientEvents, revents: 0),
            pollfd(fd: upstreamEvents == 0 ? -1 : upstream, events: upstreamEvents, revents: 0),
        ]
        let rc: Int32
        switch retryingOnInterrupt({ poll(&fds, 3, timeoutMs) }) {
        case .success(let count): rc = count
        case .failure(let error): return .end("poll: \(error.message)")
        }
        if rc == 0 { return .end("idle timeout") }
        if fds[0].revents != 0 { return .end("proxy stopped") }
        return .ready(client: fds[1].revents, upstream: fds[2].revents)
    }
}
