import CSystem
import Support

#if canImport(Glibc)
    import Glibc
#endif

/// Non-blocking socket calls for the proxy, each waiting with `poll` on the socket and
/// on the proxy's stop descriptor, so that `stop()` interrupts every wait.
enum SocketIO {
    /// What a bounded wait ended with.
    enum Wait: Equatable {
        case ready(Int16)
        case timeout
        case stopped
    }

    /// Waits until `fd` reports `events`, the stop descriptor becomes readable, or `timeoutMs` passes.
    static func wait(_ fd: Int32, _ events: Int16, timeoutMs: Int32, stopFd: Int32) -> Wait {
        var fds = [pollfd(fd: stopFd, events: Int16(POLLIN), revents: 0), pollfd(fd: fd, events: events, revents: 0)]
        guard case .success(let count) = retryingOnInterrupt({ poll(&fds, 2, timeoutMs) }) else {
            return .ready(Int16(POLLERR))
        }
        if count == 0 { return .timeout }
        if fds[0].revents != 0 { return .stopped }
        return .ready(fds[1].revents)
    }

    /// Accepts one connection as a non-blocking, close-on-exec socket, atomically: a launcher
    /// forking on another thread between `accept` and `fcntl` would leak it into a child.
    static func accept(_ listener: Int32) -> Result<Int32, Errno> {
        retryingOnInterrupt { csys_accept4(listener, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) }
    }

    /// The stop pipe every wait polls, as (read end, write end): non-blocking, and close-on-exec
    /// atomically for the same reason as `accept`. `nil` with errno set when it cannot be made.
    static func stopPipe() -> (read: Int32, write: Int32)? {
        var fds: [Int32] = [-1, -1]
        guard csys_pipe2(&fds, O_NONBLOCK | O_CLOEXEC) == 0 else { return nil }
        return (fds[0], fds[1])
    }

    static func setNonBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    /// Small writes (replies, request heads) go out at once instead of waiting on Nagle.
    static func setNoDelay(_ fd: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Fixes the kernel's receive and send buffers of `fd` at `bytes` each (the kernel doubles
    /// the figure for its bookkeeping), which also turns autotuning off: left alone, one socket
    /// of a slow peer grows to `tcp_rmem`'s maximum (32 MiB here), and the proxy's sockets are
    /// the launcher's, outside the sandbox's memory cgroup (red team R11).
    static func boundBuffers(_ fd: Int32, bytes: Int) {
        var size = Int32(clamping: bytes)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }

    /// `send` that never raises SIGPIPE; returns bytes written, 0 on EAGAIN, -1 on error (errno set).
    static func send(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        switch retryingOnInterrupt({ Glibc.send(fd, pointer, count, Int32(MSG_NOSIGNAL)) }) {
        case .success(let n): return n
        case .failure(let error) where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK: return 0
        case .failure: return -1
        }
    }

    /// Writes all of `bytes`, waiting for room up to `timeoutMs` at a time.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8], timeoutMs: Int32, stopFd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress! + offset, bytes.count - offset)
            }
            if n < 0 { return false }
            offset += n
            if n == 0, wait(fd, Int16(POLLOUT), timeoutMs: timeoutMs, stopFd: stopFd) != .ready(Int16(POLLOUT)) {
                // Timed out, stopped, or the socket reported an error or hang-up.
                return false
            }
        }
        return true
    }

    /// What one read ended with.
    enum ReadResult: Equatable {
        case data(Int)
        case end
        case failed(Int32)
        case timeout
        case stopped
    }

    /// Appends what is available (up to `maximum` bytes) to `buffer`, waiting up to `timeoutMs`.
    static func readSome(_ fd: Int32, into buffer: inout [UInt8], maximum: Int, timeoutMs: Int32, stopFd: Int32)
        -> ReadResult
    {
        while true {
            switch wait(fd, Int16(POLLIN), timeoutMs: timeoutMs, stopFd: stopFd) {
            case .timeout: return .timeout
            case .stopped: return .stopped
            case .ready: break
            }
            var chunk = [UInt8](repeating: 0, count: maximum)
            switch retryingOnInterrupt({ chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maximum, 0) } }) {
            case .success(0):
                return .end
            case .success(let n):
                buffer.append(contentsOf: chunk[0..<n])
                return .data(n)
            case .failure(let error) where error.rawValue == EAGAIN || error.rawValue == EWOULDBLOCK:
                continue
            case .failure(let error):
                return .failed(error.rawValue)
            }
        }
    }

    /// Connects a new non-blocking socket to `target`, bounded by `timeoutMs`.
    static func connect(to target: SocketAddress, timeoutMs: Int32, stopFd: Int32) -> Result<Int32, SentinelError> {
        let family = target.address.isIPv4 ? AF_INET : AF_INET6
        let fd = socket(
            family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return .failure(failure("socket", target, Errno.current)) }
        // Before the handshake, so that the window offered to the peer is scaled to it.
        boundBuffers(fd, bytes: EgressLimits.socketBufferBytes)
        let rc = target.withSockaddr { Glibc.connect(fd, $0, $1) }
        if rc != 0 {
            let code = errno
            // Not retried: an interrupted connect goes on in the background, as EINPROGRESS
            // does (calling it again would fail with EALREADY), so both wait for POLLOUT.
            guard code == EINPROGRESS || code == EINTR else {
                close(fd)
                return .failure(failure("connect", target, Errno(rawValue: code)))
            }
            switch wait(fd, Int16(POLLOUT), timeoutMs: timeoutMs, stopFd: stopFd) {
            case .timeout:
                close(fd)
                return .failure(failure("connect", target, Errno(rawValue: ETIMEDOUT)))
            case .stopped:
                close(fd)
                return .failure(SentinelError(.io, "connect \(target.address.withPort(target.port)): proxy stopped"))
            case .ready:
                var soError: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                _ = getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                if soError != 0 {
                    close(fd)
                    return .failure(failure("connect", target, Errno(rawValue: soError)))
                }
            }
        }
        setNoDelay(fd)
        return .success(fd)
    }

    private static func failure(_ call: String, _ target: SocketAddress, _ error: Errno) -> SentinelError {
        SentinelError(.io, "\(call) \(target.address.withPort(target.port)): \(error.message)", errno: error)
    }

    /// Sends our last words, then closes without a reset: stop writing, drain what the
    /// client still sends for a moment, then close, so the reply is not destroyed by an RST.
    static func closeGracefully(_ fd: Int32, stopFd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
        var scratch: [UInt8] = []
        var drained = 0
        while drained < 256 * 1024 {
            scratch.removeAll(keepingCapacity: true)
            guard case .data(let n) = readSome(fd, into: &scratch, maximum: 16 * 1024, timeoutMs: 200, stopFd: stopFd)
            else { break }
            drained += n
        }
        close(fd)
    }
}
