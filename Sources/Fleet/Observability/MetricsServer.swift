import CSystem
import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Serves a registry's exposition to Prometheus: a tiny HTTP/1.0 responder on an IPv4 loopback
/// address. One background thread accepts and answers one connection at a time (scrapes are rare
/// and small): `GET /metrics` gets 200 with the exposition, another path 404, another method 405,
/// a malformed request 400, and every answer closes the connection. It reads at most 8 KiB of a
/// request and waits at most two seconds for it, so a silent or hostile client cannot hold it.
public final class MetricsServer: Sendable {
    /// The address it listens on, e.g. `127.0.0.1`.
    public let address: String
    /// The port it listens on (the one the kernel picked when asked for port 0).
    public let port: Int
    private let loop: AcceptLoop

    /// Starts serving `registry` on `address` (in 127.0.0.0/8) and `port` (0: an ephemeral one).
    /// Throws `.invalidInput` for another address or an out-of-range port, `.io` when the socket
    /// cannot be set up (the port is taken, ...).
    public init(registry: MetricsRegistry, address: String = "127.0.0.1", port: Int = 0) throws {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        // Loopback only: the exposition names jobs and repositories, not for the network at large.
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1, UInt32(bigEndian: socketAddress.sin_addr.s_addr) >> 24 == 127
        else { throw SentinelError(.invalidInput, "metrics address \(address): not an IPv4 loopback address") }
        guard (0...65535).contains(port) else { throw SentinelError(.invalidInput, "metrics port \(port): not in 0...65535") }
        socketAddress.sin_port = UInt16(port).bigEndian

        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            let error = Errno.current
            throw SentinelError(.io, "\(address):\(port): socket failed: \(error)", errno: error)
        }
        // A restarted worker gets its port back while the old connections sit in TIME_WAIT.
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if bound != 0 { throw Self.failure(fd, "\(address):\(port): bind failed") }
        if listen(fd, 16) != 0 { throw Self.failure(fd, "\(address):\(port): listen failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if named != 0 { throw Self.failure(fd, "\(address):\(port): getsockname failed") }

        self.address = address
        self.port = Int(UInt16(bigEndian: socketAddress.sin_port))
        loop = AcceptLoop(listener: fd, registry: registry)
        // The thread holds the loop, not the server, so dropping the server still stops it.
        Thread.detachNewThread { [loop] in loop.run() }
    }

    /// Stops accepting, waits for the serving thread to end (at most the two seconds a connection
    /// in progress may take), and closes the listening socket. Safe to call more than once.
    public func stop() {
        loop.stop()
    }

    deinit { loop.stop() }

    private static func failure(_ fd: Int32, _ message: String) -> SentinelError {
        let error = Errno.current
        close(fd)
        return SentinelError(.io, "\(message): \(error)", errno: error)
    }
}

/// The serving thread's state: the listening socket and how to answer on it.
private final class AcceptLoop: Sendable {
    private static let maximumRequest = 8 * 1024
    private static let timeoutSeconds = 2

    private let listener: Int32
    private let registry: MetricsRegistry
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(listener: Int32, registry: MetricsRegistry) {
        self.listener = listener
        self.registry = registry
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // On Linux, shutting a listening socket down wakes a blocked accept with EINVAL.
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    func run() {
        defer { finished.signal() }
        while !stopped.load(ordering: .acquiring) {
            switch retryingOnInterrupt({ csys_accept4(listener, Int32(SOCK_CLOEXEC.rawValue)) }) {
            case .success(let client):
                answer(client)
                close(client)
            case .failure(let error) where [ECONNABORTED, EPROTO, EPERM].contains(error.rawValue):
                continue  // That one connection failed; the next may not.
            case .failure(let error) where [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.rawValue):
                usleep(100_000)  // Out of descriptors or memory: back off instead of spinning.
            case .failure:
                return  // Shut down by `stop()` (EINVAL), or the socket is unusable.
            }
        }
    }

    private func answer(_ client: Int32) {
        // A client that stops reading must not hold the only thread either.
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let request = readHead(client)
        guard !request.isEmpty else { return }  // Closed or silent before sending anything.
        let bytes = Array(Self.response(to: request, exposition: registry.exposition).utf8)
        var offset = 0
        while offset < bytes.count {
            // MSG_NOSIGNAL: a client that hung up yields EPIPE here, not a SIGPIPE that kills the process.
            let sent = bytes.withUnsafeBytes { raw in
                retryingOnInterrupt { send(client, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL)) }
            }
            guard case .success(let count) = sent, count > 0 else { return }  // Gone or too slow: drop it.
            offset += count
        }
        shutdown(client, Int32(SHUT_WR))
    }

    /// The request's head (up to the blank line), at most 8 KiB, read within two seconds in all:
    /// the deadline bounds the whole read, not each `recv`, so a byte-a-second client gets nowhere.
    private func readHead(_ client: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.maximumRequest)
        var received = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.timeoutSeconds) * 1_000_000_000
        while received < buffer.count, Self.headEnd(buffer[..<received]) == nil {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { break }
            let left = deadline - now
            var timeout = timeval(tv_sec: Int(left / 1_000_000_000), tv_usec: max(1, Int(left % 1_000_000_000 / 1000)))
            _ = setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let count = buffer.withUnsafeMutableBytes { raw in
                retryingOnInterrupt { recv(client, raw.baseAddress! + received, raw.count - received, 0) }
            }
            guard case .success(let n) = count, n > 0 else { break }  // End, reset or timeout.
            received += n
        }
        return Array(buffer[..<received])
    }

    private static func headEnd(_ bytes: ArraySlice<UInt8>) -> Int? {
        let crlf: [UInt8] = [13, 10, 13, 10]
        let lf: [UInt8] = [10, 10]
        return bytes.firstRange(of: crlf)?.upperBound ?? bytes.firstRange(of: lf)?.upperBound
    }

    /// The whole response to `request` (the head as received); `exposition` runs only for a scrape.
    static func response(to request: [UInt8], exposition: () -> String) -> String {
        var line = request.prefix { $0 != 10 }
        if line.last == 13 { line.removeLast() }
        let parts = String(decoding: line, as: UTF8.self).split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasPrefix("HTTP/"), parts[1].hasPrefix("/") else {
            return Self.answer(400, "Bad Request", body: "bad request\n")
        }
        guard parts[0] == "GET" else { return Self.answer(405, "Method Not Allowed", body: "only GET\n", extra: "Allow: GET\r\n") }
        let path = parts[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard path == "/metrics" else { return Self.answer(404, "Not Found", body: "not found; try /metrics\n") }
        return Self.answer(200, "OK", body: exposition(), type: "text/plain; version=0.0.4")
    }

    private static func answer(_ status: Int, _ reason: String, body: String, type: String = "text/plain", extra: String = "")
        -> String
    {
        "HTTP/1.0 \(status) \(reason)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\(extra)"
            + "Connection: close\r\n\r\n\(body)"
    }
}
