import CSystem
import Foundation
import Support
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The canary: a tiny HTTP listener on loopback, outside the sandbox, that records which
/// tokens targets fetched (`GET /TOKEN`) and answers each with `sentinel-canary-TOKEN`. It reads
/// at most 8 KiB of each request and holds no connection longer than two seconds.
public final class CanaryListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let listener: Int32
    private let hits = Mutex<[String: String]>([:])
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// `http://HOST:PORT`, the base URL payloads name.
    public func base(host: String = "127.0.0.1") -> String { "http://\(host):\(port)" }

    /// Starts listening on `address` (loopback by default), an ephemeral port.
    public convenience init(address: String = "127.0.0.1") throws {
        try self.init(listening: try Self.listeningSocket(address: address))
    }

    /// Serves `fd`, a listening TCP socket made by `listeningSocket` (here, or by a root launcher
    /// on the host's side and lent to the analysis), which it now owns.
    public init(listening fd: Int32) throws {
        var socketAddress = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0, socketAddress.sin_family == sa_family_t(AF_INET) else {
            close(fd)
            throw SentinelError(.io, "canary: the lent descriptor is not a listening IPv4 socket")
        }
        listener = fd
        port = Int(UInt16(bigEndian: socketAddress.sin_port))
        Thread.detachNewThread { [self] in serve() }
    }

    /// A TCP socket listening on `address`, an ephemeral port (close-on-exec).
    public static func listeningSocket(address: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SentinelError(.io, "canary: socket: \(Errno.current)", errno: .current) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var socketAddress = sockaddr_in()
        socketAddress.sin_family = sa_family_t(AF_INET)
        socketAddress.sin_addr.s_addr = inet_addr(address)
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            let error = Errno.current
            close(fd)
            throw SentinelError(.io, "canary: cannot listen on \(address): \(error)", errno: error)
        }
        return fd
    }

    /// Tokens fetched so far, each with the first request line that named it.
    public var tokens: [String: String] { hits.withLock { $0 } }

    /// Stops listening and waits for the accept loop to end.
    public func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        finished.wait()
        close(listener)
    }

    deinit { stop() }

    private func serve() {
        defer { finished.signal() }
        while !stopped.load(ordering: .relaxed) {
            let client = csys_accept4(listener, Int32(SOCK_CLOEXEC.rawValue))
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            Thread.detachNewThread { [self] in answer(client) }
        }
    }

    private func answer(_ client: Int32) {
        defer { close(client) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 8192)
        var received = 0
        while received < buffer.count {
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress! + received, $0.count - received, 0) }
            if count <= 0 { break }
            received += count
            if buffer[..<received].contains(0x0A) { break }
        }
        let text = String(decoding: buffer[..<received], as: UTF8.self)
        let line = text.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
        let parts = line.split(separator: " ")
        var token = ""
        if parts.count >= 2 {
            token = parts[1].split(separator: "/").last.map { String($0.prefix(64)) } ?? ""
            token = String(token.prefix { $0.isLetter || $0.isNumber })
        }
        if !token.isEmpty { hits.withLock { if $0.count < 10_000, $0[token] == nil { $0[token] = String(line.prefix(200)) } } }
        let body = CanaryRegistry.echo(of: token)
        let response =
            "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        _ = Array(response.utf8).withUnsafeBytes { writeAll(client, $0) }
    }
}
