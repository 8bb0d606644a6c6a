import Synchronization
import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

// Loopback-only fixtures for the egress tests: a listening socket, a tiny HTTP server,
// a blocking client and a proxy harness. Nothing here ever touches a non-loopback address.

/// Blocking loopback sockets with timeouts, so that no test can hang.
enum Loopback {
    /// A listening TCP socket on 127.0.0.1:0 (or [::1]:0) and its port.
    static func listen(ipv6: Bool = false) throws -> (fd: Int32, port: UInt16) {
        let address = IPAddress(ipv6 ? "::1" : "127.0.0.1")!
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = SocketAddress(address: address, port: 0).withSockaddr { bind(fd, $0, $1) }
        try #require(bound == 0)
        try #require(Glibc.listen(fd, 256) == 0)
        let port = try #require(SocketAddress.local(of: fd)?.port)
        return (fd, port)
    }

    /// A connected client socket with 5 s send and receive timeouts.
    static func connect(port: UInt16, ipv6: Bool = false) throws -> Int32 {
        let address = IPAddress(ipv6 ? "::1" : "127.0.0.1")!
        let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        setTimeouts(fd, seconds: 5)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = SocketAddress(address: address, port: port).withSockaddr { Glibc.connect(fd, $0, $1) }
        try #require(rc == 0, "connect to loopback port \(port)")
        return fd
    }

    static func setTimeouts(_ fd: Int32, seconds: Int) {
        var tv = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    }

    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    @discardableResult
    static func send(_ fd: Int32, _ text: String) -> Bool { send(fd, Array(text.utf8)) }

    /// Reads until EOF, an error or timeout, or `limit` bytes.
    static func readAll(_ fd: Int32, limit: Int = 1 << 30) -> [UInt8] {
        readToEnd(fd, limit: limit).bytes
    }

    /// Reads until EOF, an error, a receive timeout or `limit`; `closedByPeer` is true only when
    /// the other side closed the connection (recv returned 0), not when our own timeout ended it.
    static func readToEnd(_ fd: Int32, limit: Int = 1 << 30) -> (bytes: [UInt8], closedByPeer: Bool) {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        while result.count < limit {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return (result, true) }
            if n < 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return (result, false)
    }

    /// Reads and discards until EOF, an error or timeout; returns the byte count.
    static func drain(_ fd: Int32) -> Int {
        var total = 0
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        while true {
            let n = recv(fd, chunk.baseAddress, chunk.count, 0)
            if n <= 0 { return total }
            total += n
        }
    }

    /// Reads until `count` bytes arrived (fewer on EOF or timeout).
    static func read(_ fd: Int32, count: Int) -> [UInt8] {
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while result.count < count {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, min($0.count, count - result.count), 0) }
            if n <= 0 { break }
            result.append(contentsOf: chunk[0..<n])
        }
        return result
    }

    /// Reads until the end of an HTTP head (`\r\n\r\n`), EOF or timeout.
    static func readHead(_ fd: Int32) -> String {
        var result: [UInt8] = []
        var byte: UInt8 = 0
        while result.count < 64 * 1024 {
            guard recv(fd, &byte, 1, 0) == 1 else { break }
            result.append(byte)
            if result.count >= 4 && result.suffix(4).elementsEqual([13, 10, 13, 10]) { break }
        }
        return String(decoding: result, as: UTF8.self)
    }
}

/// A one-thread-per-connection HTTP server on 127.0.0.1:0 that counts the bytes it
/// receives and sends on every connection. `GET /bytes/N` answers N bytes; `/count`
/// reads the body until the client half-closes and answers how many bytes came.
final class TestHTTPServer: Sendable {
    struct Connection: Sendable {
        var received = 0
        var sent = 0
        var head = ""
    }

    let port: UInt16
    private let listener: Int32
    private let state = Mutex<(accepted: Int, done: [Connection], stopped: Bool)>((0, [], false))
    private let running = Mutex(0)

    init(ipv6: Bool = false) throws {
        (listener, port) = try Loopback.listen(ipv6: ipv6)
        running.withLock { $0 += 1 }
        _ = EgressProxy.spawnThread { [self] in acceptLoop() }
    }

    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.accepted } }

    /// Connections finished so far (waits up to 30 s for `count` of them).
    func finished(atLeast count: Int) -> [Connection] {
        waitUntil { state.withLock { $0.done.count } >= count }
        return state.withLock { $0.done }
    }

    func stop() {
        state.withLock { $0.stopped = true }
        shutdown(listener, Int32(SHUT_RDWR))
        waitUntil { running.withLock { $0 } == 0 }
        close(listener)
    }

    private func acceptLoop() {
        defer { running.withLock { $0 -= 1 } }
        while true {
            let fd = accept(listener, nil, nil)
            if fd < 0 {
                if state.withLock({ $0.stopped }) { return }
                if errno == EINTR { continue }
                return
            }
            state.withLock { $0.accepted += 1 }
            running.withLock { $0 += 1 }
            _ = EgressProxy.spawnThread { [self] in
                serve(fd)
                running.withLock { $0 -= 1 }
            }
        }
    }

    private func serve(_ fd: Int32) {
        Loopback.setTimeouts(fd, seconds: 10)
        var connection = Connection()
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var headEnd: Int?
        while headEnd == nil {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            buffer.append(contentsOf: chunk[0..<n])
            headEnd = TestHTTPServer.endOfHead(buffer)
        }
        connection.received = buffer.count
        if let headEnd {
            connection.head = String(decoding: buffer[..<headEnd], as: UTF8.self)
            let path = connection.head.split(separator: " ").dropFirst().first.map(String.init) ?? "/"
            var body: [UInt8]
            var streamed = 0
            if path == "/count" {
                var bodyBytes = buffer.count - headEnd
                while true {
                    let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { break }
                    bodyBytes += n
                    connection.received += n
                }
                body = Array("\(bodyBytes)".utf8)
            } else if path.hasPrefix("/bytes/"), let count = Int(path.dropFirst(7)), count >= 0 {
                // Large bodies are streamed from one chunk instead of allocated whole.
                body = count > 1 << 20 ? [] : [UInt8](repeating: UInt8(ascii: "x"), count: count)
                streamed = count > 1 << 20 ? count : 0
            } else {
                body = Array("hello from \(path)\n".utf8)
            }
            let length = body.count + streamed
            let header = Array("HTTP/1.1 200 OK\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
            if Loopback.send(fd, header) { connection.sent += header.count }
            if Loopback.send(fd, body) { connection.sent += body.count }
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: min(streamed, 256 * 1024))
            while streamed > 0 {
                let part = min(streamed, chunk.count)
                guard Loopback.send(fd, part == chunk.count ? chunk : Array(chunk[0..<part])) else { break }
                connection.sent += part
                streamed -= part
            }
            body = []
        }
        shutdown(fd, Int32(SHUT_WR))
        // Count anything else the client sends until it closes.
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            connection.received += n
        }
        close(fd)
        state.withLock { $0.done.append(connection) }
    }

    static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4)
        where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index + 4
        }
        return nil
    }
}

/// Polls `condition` every 2 ms for at most `seconds`; returns whether it became true. The default
/// is wide: a poll ends as soon as the condition holds, and a loaded CI machine can be slow.
@discardableResult
func waitUntil(seconds: Double = 30, _ condition: () -> Bool) -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        usleep(2000)
    }
    return condition()
}

/// A started proxy on its own loopback listener, with its denials collected.
final class ProxyHarness: Sendable {
    let proxy: EgressProxy
    let port: UInt16
    private let denials = RecordLog()

    init(
        allow: [String], deny: [String] = [], resolver: [String: [String]] = [:], limits: EgressLimits = EgressLimits()
    ) throws {
        let (fd, port) = try Loopback.listen()
        self.port = port
        let table = resolver.mapValues { $0.compactMap(IPAddress.init) }
        let denials = self.denials
        proxy = try EgressProxy(
            listeningSocket: fd, policy: try EgressPolicy(allow: allow, deny: deny), resolver: StaticResolver(table),
            limits: limits, onDenied: { record in denials.append(record) })
        try proxy.start()
    }

    var denied: [EgressRecord] { denials.items }

    /// The records once at least `count` exist (waits up to 30 s).
    func records(atLeast count: Int) -> [EgressRecord] {
        waitUntil { proxy.records.count >= count }
        return proxy.records
    }

    func client() throws -> Int32 { try Loopback.connect(port: port) }
}

/// A thread-safe list of records (what `onDenied` received).
final class RecordLog: Sendable {
    private let storage = Mutex<[EgressRecord]>([])
    func append(_ record: EgressRecord) { storage.withLock { $0.append(record) } }
    var items: [EgressRecord] { storage.withLock { $0 } }
}

@Suite("Egress fixtures")
struct EgressFixtureTests {
    @Test("the test server answers directly and counts bytes both ways")
    func serverDirect() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let fd = try Loopback.connect(port: server.port)
        let request = "GET /bytes/10 HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(Loopback.send(fd, request))
        let response = Loopback.readAll(fd)
        close(fd)
        #expect(String(decoding: response, as: UTF8.self).hasSuffix("\r\n\r\nxxxxxxxxxx"))
        let seen = server.finished(atLeast: 1)
        #expect(seen.first?.received == request.utf8.count)
        #expect(seen.first?.sent == response.count)
    }
}
