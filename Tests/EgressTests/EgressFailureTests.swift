import Support
import Synchronization
import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

/// Allowed requests that still fail (no address, refused), SOCKS5 refusals, resolvers, and
/// many clients at once. All on loopback.
@Suite("Egress failures and concurrency")
struct EgressFailureTests {
    /// A loopback port with nothing listening (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let (fd, port) = try Loopback.listen()
        close(fd)
        return port
    }

    @Test("an allowed name that does not resolve: 502 and a record with the error")
    func unresolvable() throws {
        let harness = try ProxyHarness(allow: ["nowhere.test:80"])
        defer { harness.proxy.stop() }
        let (fd, head) = try EgressProxyTests.connectTunnel(harness, to: "nowhere.test:80")
        close(fd)
        #expect(head.hasPrefix("HTTP/1.1 502 Bad Gateway"))
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.allowed)
        #expect(record.error == "resolve nowhere.test: unknown name")
        #expect(record.address == nil)
        #expect(harness.denied.isEmpty)
    }

    @Test("an allowed destination that refuses: 502 over HTTP, reply 0x05 over SOCKS5")
    func refused() throws {
        let port = try Self.closedPort()
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(port)"])
        defer { harness.proxy.stop() }
        let (fd, head) = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(port)")
        close(fd)
        #expect(head.hasPrefix("HTTP/1.1 502 Bad Gateway"))
        let (socksFd, reply) = try EgressProxyTests.socks(harness, address: [1, 127, 0, 0, 1], port: port)
        close(socksFd)
        #expect(reply.count == 10 && reply[1] == 0x05)
        let records = harness.records(atLeast: 2)
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.allowed && $0.error == "connect 127.0.0.1:\(port): Connection refused" })
    }

    @Test("SOCKS5: no acceptable method is answered 0xFF; BIND and UDP ASSOCIATE get 0x07", arguments: [UInt8(2), 3])
    func socksRefusals(command: UInt8) throws {
        let harness = try ProxyHarness(allow: ["127.0.0.1:80"])
        defer { harness.proxy.stop() }
        let fd = try harness.client()
        #expect(Loopback.send(fd, [5, 1, 2]))
        #expect(Loopback.readAll(fd) == [5, 0xFF])
        close(fd)
        let other = try harness.client()
        #expect(Loopback.send(other, [5, 1, 0, 5, command, 0, 1, 127, 0, 0, 1, 0, 80]))
        let reply = Loopback.readAll(other)
        close(other)
        #expect(reply.count == 12 && reply[3] == 0x07)
        #expect(harness.proxy.records.isEmpty)
    }

    @Test("the static resolver normalises names and fails on unknown ones")
    func staticResolver() throws {
        let resolver = StaticResolver(["Allowed.Test.": [IPAddress("127.0.0.1")!]])
        #expect(try resolver.resolve("allowed.test") == [IPAddress("127.0.0.1")!])
        #expect(throws: SentinelError(.io, "resolve other.test: unknown name")) { try resolver.resolve("other.test") }
    }

    @Test("the system resolver finds localhost from the hosts file")
    func systemResolver() throws {
        let addresses = try SystemResolver().resolve("localhost")
        #expect(addresses.contains(IPAddress("127.0.0.1")!) || addresses.contains(IPAddress("::1")!))
    }

    @Test("many clients at once: every transfer completes and every record is exact")
    func concurrent() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"])
        defer { harness.proxy.stop() }
        let clients = 16
        let received = Mutex<[Int]>([])
        let done = Mutex(0)
        for index in 0..<clients {
            _ = EgressProxy.spawnThread {
                defer { done.withLock { $0 += 1 } }
                guard let fd = try? Loopback.connect(port: harness.port) else { return }
                let size = 100_000 + index
                let request =
                    "GET http://127.0.0.1:\(server.port)/bytes/\(size) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
                Loopback.send(fd, request)
                let count = Loopback.drain(fd)
                close(fd)
                received.withLock { $0.append(count) }
            }
        }
        #expect(waitUntil(seconds: 20) { done.withLock { $0 } == clients })
        let counts = received.withLock { $0 }
        #expect(counts.count == clients)
        let seen = server.finished(atLeast: clients)
        let records = harness.records(atLeast: clients)
        #expect(records.count == clients)
        #expect(records.map(\.bytesIn).sorted() == counts.sorted())
        #expect(records.map(\.bytesIn).sorted() == seen.map(\.sent).sorted())
        #expect(records.map(\.bytesOut).sorted() == seen.map(\.received).sorted())
    }

    @Test(
        "a client that vanishes mid-transfer ends only its connection (no SIGPIPE), with an error recorded")
    func clientVanishes() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"])
        defer { harness.proxy.stop() }
        for _ in 0..<3 {
            let (fd, head) = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
            #expect(head.hasPrefix("HTTP/1.1 200"))
            Loopback.send(fd, "GET /bytes/50000000 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(Loopback.read(fd, count: 1_000_000).count == 1_000_000)
            // Unread data makes close() send a reset: the proxy's next write fails.
            close(fd)
        }
        let records = harness.records(atLeast: 3)
        #expect(records.count == 3)
        #expect(records.allSatisfy { ($0.error ?? "").contains("client: ") }, "\(records.map(\.error))")
        #expect(records.allSatisfy { $0.bytesIn >= 1_000_000 && $0.bytesIn < 50_000_000 })
        // And the proxy still serves.
        let (fd, head) = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        close(fd)
        #expect(head.hasPrefix("HTTP/1.1 200"))
    }

    @Test("proxy threads block SIGPIPE: a write into a shut socket fails with EPIPE instead of killing the process")
    func sigpipeBlocked() throws {
        let result = Mutex<Int32?>(nil)
        #expect(
            EgressProxy.spawnThread {
                var pair: [Int32] = [-1, -1]
                guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0 else { return }
                shutdown(pair[0], Int32(SHUT_WR))
                var byte: UInt8 = 0
                let n = write(pair[0], &byte, 1)  // plain write: no MSG_NOSIGNAL
                let code = errno
                close(pair[0])
                close(pair[1])
                result.withLock { $0 = n < 0 ? code : 0 }
            })
        #expect(waitUntil { result.withLock { $0 } != nil })
        #expect(result.withLock { $0 } == EPIPE)
    }

    /// Records every lookup; resolves like a static table.
    final class CountingResolver: Resolver {
        let table: StaticResolver
        let lookups = Mutex<[String]>([])
        init(_ table: [String: [IPAddress]]) { self.table = StaticResolver(table) }
        func resolve(_ name: String) throws -> [IPAddress] {
            lookups.withLock { $0.append(name) }
            return try table.resolve(name)
        }
    }

    @Test("names denied by the policy are never looked up (no DNS leak); allowed ones are, once")
    func noLookupForDeniedNames() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let resolver = CountingResolver([
            "allowed.test": [IPAddress("127.0.0.1")!], "evil.test": [IPAddress("127.0.0.1")!],
        ])
        let (listener, port) = try Loopback.listen()
        let proxy = try EgressProxy(
            listeningSocket: listener,
            policy: EgressPolicy(allow: ["allowed.test:\(server.port)", "127.0.0.1:\(server.port)"]),
            resolver: resolver)
        try proxy.start()
        defer { proxy.stop() }
        for target in ["evil.test", "allowed.test"] {
            let fd = try Loopback.connect(port: port)
            Loopback.send(fd, "CONNECT \(target):\(server.port) HTTP/1.1\r\n\r\n")
            _ = Loopback.readHead(fd)
            close(fd)
        }
        #expect(waitUntil { proxy.records.count == 2 })
        #expect(resolver.lookups.withLock { $0 } == ["allowed.test"])
    }

    @Test("accepted connections and the stop pipe are close-on-exec and non-blocking from the start")
    func descriptorFlags() throws {
        let pipe = try #require(SocketIO.stopPipe())
        let (listener, port) = try Loopback.listen()
        let client = try Loopback.connect(port: port)
        let accepted = try SocketIO.accept(listener).get()
        defer {
            for fd in [pipe.read, pipe.write, listener, client, accepted] { close(fd) }
        }
        for fd in [pipe.read, pipe.write, accepted] {
            #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
            #expect(fcntl(fd, F_GETFL) & O_NONBLOCK != 0)
        }
    }
}
