import CSystem
import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one small HTTP/1.0 server Sentinel runs itself (the fleet's `/metrics`, the DAST canary):
/// on an IPv4 socket, a fixed number of threads each accept and answer one connection at
/// a time, so however many clients connect, no more threads run. Each reads at most 8 KiB of a
/// request head within two seconds in all (a byte-a-second client gets nowhere), answers, and
/// closes; a client too slow to take the answer is dropped after two seconds.
public final class HTTPResponder: Sendable {
    /// The port it listens on (the one the kernel picked when asked for port 0).
    public let port: Int
    private let loop: ResponderLoop

    /// Serves `listener`, a listening IPv4 socket (`listeningSocket`, or one a root launcher made
    /// and lent), which it now owns, with `threads` serving threads; `handler` answers each
    /// request (nil: a request line that is not `METHOD TARGET HTTP/x`).
    public init(
        listening listener: Int32, threads: Int = 1,
        handler: @escaping @Sendable (ResponderRequest?) -> ResponderResponse
    ) throws {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        guard named == 0, socketAddress.sin_family == sa_family_t(AF_INET) else {
            close(listener)
            throw SentinelError(.io, "the descriptor is not a listening IPv4 socket")
        }
        port = Int(UInt16(bigEndian: socketAddress.sin_port))
        let count = max(1, threads)
        loop = ResponderLoop(listener: listener, threads: count, handler: handler)
        // The threads hold the loop, not the responder, so dropping the responder still stops them.
        for _ in 0..<count { Thread.detachNewThread { [loop] in loop.run() } }
    }

    /// A close-on-exec TCP socket listening on `address` and `port` (0: an ephemeral one).
    /// `loopbackOnly`: `address` must be in 127.0.0.0/8 (the metrics name jobs and repositories);
    /// the canary listens where a remote target reaches this host. Throws `.invalidInput` for
    /// another address or an out-of-range port, `.io` when the socket cannot be set up.
    public static func listeningSocket(address: String, port: Int = 0, loopbackOnly: Bool = true) throws -> Int32 {
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, address, &socketAddress.sin_addr) == 1 else {
            throw SentinelError(.invalidInput, "\(address): not an IPv4 address")
        }
        guard !loopbackOnly || UInt32(bigEndian: socketAddress.sin_addr.s_addr) >> 24 == 127 else {
            throw SentinelError(.invalidInput, "\(address): not an IPv4 loopback address")
        }
        guard (0...65535).contains(port) else { throw SentinelError(.invalidInput, "port \(port): not in 0...65535") }
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
        guard bound == 0 else { throw failure(fd, "\(address):\(port): bind failed") }
        guard listen(fd, 64) == 0 else { throw failure(fd, "\(address):\(port): listen failed") }
        return fd
    }

    private static func failure(_ fd: Int32, _ message: String) -> SentinelError {
        let error = Errno.current
        close(fd)
        return SentinelError(.io, "\(message): \(error)", errno: error)
    }

    /// Stops accepting, waits for the serving threads to end (at most the two seconds a
    /// connection in progress may take), and closes the listening socket. Safe to call again.
    public func stop() { loop.stop() }

    deinit { loop.stop() }
}

/// The serving threads' shared state: the listening socket and how to answer on it.
private final class ResponderLoop: Sendable {
    static let maximumHead = 8 * 1024
    static let timeoutSeconds = 2

    private let listener: Int32
    private let threads: Int
    private let handler: @Sendable (ResponderRequest?) -> ResponderResponse
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(listener: Int32, threads: Int, handler: @escaping @Sendable (ResponderRequest?) -> ResponderResponse) {
        self.listener = listener
        self.threads = threads
        self.handler = handler
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // On Linux, shutting a listening socket down wakes every blocked accept with EINVAL.
        shutdown(listener, Int32(SHUT_RDWR))
        for _ in 0..<threads { finished.wait() }
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
        // A client that stops reading must not hold a serving thread either.
        var timeout = timeval(tv_sec: Self.timeoutSeconds, tv_usec: 0)
        _ = setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let head = readHead(client)
        guard !head.isEmpty else { return }  // Closed or silent before sending anything.
        let bytes = handler(ResponderRequest(head: head)).encoded()
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
    /// the deadline bounds the whole read, not each `recv`.
    private func readHead(_ client: Int32) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Self.maximumHead)
        var received = 0
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(Self.timeoutSeconds) * 1_000_000_000
        while received < buffer.count, ResponderRequest.headEnd(buffer[..<received]) == nil {
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
}
