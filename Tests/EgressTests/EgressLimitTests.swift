import Foundation
import Synchronization
import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Egress limits")
struct EgressLimitTests {
    @Test("connections over the limit are answered 503 and recorded; slots free up again")
    func maxConnections() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["127.0.0.1:\(server.port)"], limits: EgressLimits(maxConnections: 2))
        defer { harness.proxy.stop() }
        let target = "127.0.0.1:\(server.port)"
        let first = try EgressProxyTests.connectTunnel(harness, to: target)
        let second = try EgressProxyTests.connectTunnel(harness, to: target)
        #expect(first.head.hasPrefix("HTTP/1.1 200"))
        #expect(second.head.hasPrefix("HTTP/1.1 200"))
        let third = try EgressProxyTests.connectTunnel(harness, to: target)
        close(third.fd)
        #expect(third.head.hasPrefix("HTTP/1.1 503 "))
        let refused = try #require(harness.records(atLeast: 1).first)
        #expect(!refused.allowed)
        #expect(refused.rule == "connection limit 2 reached")
        #expect(harness.denied.count == 1)

        close(first.fd)
        close(second.fd)
        #expect(waitUntil { harness.proxy.activeConnections == 0 })
        let fourth = try EgressProxyTests.connectTunnel(harness, to: target)
        close(fourth.fd)
        #expect(fourth.head.hasPrefix("HTTP/1.1 200"))
        #expect(waitUntil { server.accepted == 3 })
    }

    /// Red team R11: a `--memory 64M` sandbox pinned 241 MiB of host memory through 64 connections
    /// to a slow server: the proxy's sockets are the launcher's, and their buffers grew unbounded.
    @Test("the proxy's upstream socket has fixed buffers, whatever the peer does")
    func upstreamBuffersAreBounded() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"], limits: EgressLimits())
        defer { harness.proxy.stop() }
        let tunnel = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        defer { close(tunnel.fd) }
        #expect(tunnel.head.hasPrefix("HTTP/1.1 200"))
        // `ss` shows the kernel's buffer sizes (`rb`, `tb`) of the proxy's socket to the server.
        let ss = Process()
        ss.executableURL = URL(fileURLWithPath: "/usr/bin/ss")
        ss.arguments = ["-tmnH", "state", "established", "dport", "= :\(server.port)"]
        let pipe = Pipe()
        ss.standardOutput = pipe
        try ss.run()
        let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ss.waitUntilExit()
        let fixed = 2 * EgressLimits.socketBufferBytes
        #expect(text.contains("rb\(fixed),"), "\(text)")
        #expect(text.contains("tb\(fixed),"), "\(text)")
    }

    @Test("a sandbox's connections are bounded by its memory: the proxy's buffers stay within a quarter of it")
    func connectionsFollowTheMemoryLimit() {
        #expect(EgressLimits.connections(requested: 64, memoryBytes: nil) == 64)
        #expect(EgressLimits.connections(requested: 64, memoryBytes: 64 << 20) == 10)
        #expect(EgressLimits.connections(requested: 64, memoryBytes: 8 << 30) == 64)
        #expect(EgressLimits.connections(requested: 64, memoryBytes: 1 << 20) == 4)
        #expect(EgressLimits.connections(requested: 2, memoryBytes: 1 << 20) == 2)
        for memory: UInt64 in [16 << 20, 64 << 20, 512 << 20] {
            let connections = EgressLimits.connections(requested: 64, memoryBytes: memory)
            #expect(Int64(connections) * EgressLimits.bytesPerConnection <= max(Int64(memory / 4), 4 * EgressLimits.bytesPerConnection))
        }
    }

    @Test("an idle tunnel is closed after the idle timeout and the record says so")
    func idleTimeout() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["127.0.0.1:\(server.port)"], limits: EgressLimits(idleTimeout: .milliseconds(300)))
        defer { harness.proxy.stop() }
        let started = ContinuousClock.now
        let tunnel = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        #expect(tunnel.head.hasPrefix("HTTP/1.1 200"))
        Loopback.setTimeouts(tunnel.fd, seconds: 60)  // the proxy, not the client, must end it
        let read = Loopback.readToEnd(tunnel.fd)
        close(tunnel.fd)
        // Ended by the proxy (not by the client's own 60 s timeout), and not before the idle
        // timeout: load can only make it later, never earlier.
        #expect(read.bytes.isEmpty)
        #expect(read.closedByPeer, "the proxy did not close the idle tunnel")
        #expect(started.duration(to: .now) >= .milliseconds(250))
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.allowed)
        #expect(record.error == "idle timeout")
    }

    @Test("a client that never finishes its request is dropped after the request timeout")
    func requestTimeout() throws {
        let harness = try ProxyHarness(allow: [], limits: EgressLimits(requestTimeout: .milliseconds(200)))
        defer { harness.proxy.stop() }
        let fd = try harness.client()
        Loopback.setTimeouts(fd, seconds: 60)  // the proxy, not the client, must end it
        #expect(Loopback.send(fd, "CONNECT a.test:443 HTTP/1.1\r\n"))
        // The client's own receive timeout (60 s, 300x the proxy's) would also end the read;
        // only the proxy closing the connection counts.
        let read = Loopback.readToEnd(fd)
        close(fd)
        #expect(read.bytes.isEmpty)
        #expect(read.closedByPeer, "the proxy did not close the connection: the request timeout did not fire")
        #expect(harness.proxy.records.isEmpty)
    }

    @Test(
        "the total byte limit cuts the transfer exactly at the limit and refuses later connections")
    func totalBytes() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["127.0.0.1:\(server.port)"], limits: EgressLimits(maxTotalBytes: 10_000))
        defer { harness.proxy.stop() }
        let tunnel = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        #expect(tunnel.head.hasPrefix("HTTP/1.1 200"))
        let request = "GET /bytes/100000 HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(Loopback.send(tunnel.fd, request))
        let received = Loopback.readAll(tunnel.fd)
        close(tunnel.fd)
        #expect(received.count == 10_000 - request.utf8.count)
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.bytes == 10_000)
        #expect(record.error == "total byte limit reached")

        let later = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        close(later.fd)
        #expect(later.head.hasPrefix("HTTP/1.1 503 "))
        #expect(harness.records(atLeast: 2).last?.rule == "total byte limit 10000 reached")
    }

    @Test("stop() returns promptly with open connections, closes them and returns every record")
    func stopWithOpenConnections() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        // Timeouts far beyond the bound below: stop() returning within it did not wait for them.
        let harness = try ProxyHarness(
            allow: ["127.0.0.1:\(server.port)"],
            limits: EgressLimits(idleTimeout: .seconds(600), requestTimeout: .seconds(600)))
        var tunnels: [Int32] = []
        for _ in 0..<4 {
            let tunnel = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
            #expect(tunnel.head.hasPrefix("HTTP/1.1 200"))
            tunnels.append(tunnel.fd)
        }
        // One more client that has sent only half a request.
        let idle = try harness.client()
        #expect(Loopback.send(idle, "CONNECT 127.0.0.1"))
        // A stop() that waited for the connections' own timeouts would end them with "idle timeout"
        // after 600 s; the hang guard below is half that, and the records must say "proxy stopped".
        let stopped = DispatchSemaphore(value: 0)
        let box = RecordsBox()
        let proxy = harness.proxy
        DispatchQueue.global().async {
            box.set(proxy.stop())
            stopped.signal()
        }
        #expect(stopped.wait(timeout: .now() + .seconds(300)) == .success, "stop() waited for open connections")
        let records = box.get()
        #expect(records.count == 4)
        #expect(records.allSatisfy { $0.error == "proxy stopped" })
        for fd in tunnels + [idle] {
            #expect(Loopback.readAll(fd).isEmpty)
            close(fd)
        }
        #expect(harness.proxy.stop().count == 4)
        // The listener is closed: nobody can connect any more.
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        let rc = SocketAddress(address: IPAddress("127.0.0.1")!, port: harness.port).withSockaddr {
            connect(fd, $0, $1)
        }
        #expect(rc != 0)
    }

    @Test("start() refuses a descriptor that is not a listening socket")
    func startNeedsListener() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let proxy = try EgressProxy(listeningSocket: fd, policy: EgressPolicy(allow: []))
        #expect(throws: (any Error).self) { try proxy.start() }
        proxy.stop()
    }
}

/// The records a background stop() returned.
private final class RecordsBox: Sendable {
    private let records = Mutex<[EgressRecord]>([])
    func set(_ value: [EgressRecord]) { records.withLock { $0 = value } }
    func get() -> [EgressRecord] { records.withLock { $0 } }
}
