import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

/// End-to-end through a live proxy to a test server, all on 127.0.0.1 / ::1.
@Suite("Egress proxy")
struct EgressProxyTests {
    /// Sends a CONNECT and returns the socket and the proxy's response head.
    static func connectTunnel(_ harness: ProxyHarness, to target: String) throws -> (fd: Int32, head: String) {
        let fd = try harness.client()
        #expect(Loopback.send(fd, "CONNECT \(target) HTTP/1.1\r\nHost: \(target)\r\n\r\n"))
        return (fd, Loopback.readHead(fd))
    }

    /// Greets without authentication and sends a SOCKS5 CONNECT; returns the socket and reply.
    static func socks(_ harness: ProxyHarness, address: [UInt8], port: UInt16) throws -> (fd: Int32, reply: [UInt8]) {
        let fd = try harness.client()
        #expect(Loopback.send(fd, [5, 1, 0]))
        #expect(Loopback.read(fd, count: 2) == [5, 0])
        #expect(Loopback.send(fd, [5, 1, 0] + address + [UInt8(port >> 8), UInt8(port & 0xFF)]))
        let head = Loopback.read(fd, count: 4)
        guard head.count == 4 else { return (fd, head) }
        let rest = Loopback.read(fd, count: head[3] == 4 ? 18 : 6)
        return (fd, head + rest)
    }

    static func domain(_ name: String) -> [UInt8] { [3, UInt8(name.utf8.count)] + Array(name.utf8) }

    @Test(
        "an allowed CONNECT tunnel carries a GET, and the record counts what the server saw")
    func connectThenGet() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["allowed.test:\(server.port)", "127.0.0.1:\(server.port)"],
            resolver: ["allowed.test": ["127.0.0.1"]])
        defer { harness.proxy.stop() }
        let (fd, head) = try Self.connectTunnel(harness, to: "Allowed.Test.:\(server.port)")
        #expect(head == "HTTP/1.1 200 Connection established\r\n\r\n")
        #expect(Loopback.send(fd, "GET /bytes/100000 HTTP/1.1\r\nHost: allowed.test\r\n\r\n"))
        let response = Loopback.readAll(fd)
        close(fd)
        #expect(response.count > 100_000)
        #expect(response.suffix(100_000).allSatisfy { $0 == UInt8(ascii: "x") })
        let seen = try #require(server.finished(atLeast: 1).first)
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.allowed)
        #expect(record.rule == "allowed.test:\(server.port)")
        #expect(record.host == "allowed.test")
        #expect(record.address == "127.0.0.1")
        #expect(record.protocol == .connect)
        #expect(record.bytesOut == seen.received)
        #expect(record.bytesIn == seen.sent)
        #expect(record.bytesIn == response.count)
        #expect(record.error == nil)
        #expect(harness.denied.isEmpty)
    }

    @Test("allowed plain HTTP is forwarded in origin form with Connection: close and no Proxy-* headers")
    func plainHTTP() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["allowed.test:\(server.port)", "127.0.0.1:\(server.port)"],
            resolver: ["allowed.test": ["127.0.0.1"]])
        defer { harness.proxy.stop() }
        let fd = try harness.client()
        #expect(
            Loopback.send(
                fd,
                "GET http://allowed.test:\(server.port)/bytes/5000 HTTP/1.1\r\nHost: allowed.test:\(server.port)\r\n"
                    + "Proxy-Connection: keep-alive\r\nProxy-Authorization: Basic eDp5\r\n\r\n"))
        let response = Loopback.readAll(fd)
        close(fd)
        #expect(String(decoding: response.prefix(15), as: UTF8.self) == "HTTP/1.1 200 OK")
        #expect(response.suffix(5000).allSatisfy { $0 == UInt8(ascii: "x") })
        let seen = try #require(server.finished(atLeast: 1).first)
        #expect(seen.head.hasPrefix("GET /bytes/5000 HTTP/1.1\r\n"))
        #expect(seen.head.contains("\r\nConnection: close\r\n"))
        #expect(!seen.head.lowercased().contains("proxy-"))
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.protocol == .http)
        #expect(record.allowed)
        #expect(record.bytesOut == seen.received)
        #expect(record.bytesIn == seen.sent)
    }

    @Test("an allowed SOCKS5 CONNECT by domain name carries a GET")
    func socksDomain() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["allowed.test:\(server.port)", "127.0.0.1:\(server.port)"],
            resolver: ["allowed.test": ["127.0.0.1"]])
        defer { harness.proxy.stop() }
        let (fd, reply) = try Self.socks(harness, address: Self.domain("allowed.test"), port: server.port)
        #expect(reply.count == 10)
        #expect(reply.prefix(4) == [5, 0, 0, 1])
        #expect(Loopback.send(fd, "GET /bytes/777 HTTP/1.1\r\nHost: allowed.test\r\n\r\n"))
        let response = Loopback.readAll(fd)
        close(fd)
        #expect(response.suffix(777).allSatisfy { $0 == UInt8(ascii: "x") })
        let seen = try #require(server.finished(atLeast: 1).first)
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.protocol == .socks5)
        #expect(record.allowed)
        #expect(record.bytesOut == seen.received)
        #expect(record.bytesIn == seen.sent)
    }

    @Test("an allowed CONNECT to an IPv6 loopback literal works")
    func ipv6Literal() throws {
        let server = try TestHTTPServer(ipv6: true)
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["[::1]:\(server.port)"])
        defer { harness.proxy.stop() }
        let (fd, head) = try Self.connectTunnel(harness, to: "[::1]:\(server.port)")
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(Loopback.send(fd, "GET /v6 HTTP/1.1\r\nHost: x\r\n\r\n"))
        let response = String(decoding: Loopback.readAll(fd), as: UTF8.self)
        close(fd)
        #expect(response.hasSuffix("hello from /v6\n"))
        #expect(harness.records(atLeast: 1).first?.address == "::1")
    }

    @Test(
        "half-close: the client's end of body reaches the server, the answer still comes back")
    func halfClose() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"])
        defer { harness.proxy.stop() }
        let (fd, head) = try Self.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
        #expect(head.hasPrefix("HTTP/1.1 200"))
        #expect(Loopback.send(fd, "POST /count HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        #expect(Loopback.send(fd, [UInt8](repeating: 7, count: 300_000)))
        shutdown(fd, Int32(SHUT_WR))
        let response = String(decoding: Loopback.readAll(fd), as: UTF8.self)
        close(fd)
        #expect(response.hasSuffix("\r\n\r\n300000"))
        let seen = try #require(server.finished(atLeast: 1).first)
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.bytesOut == seen.received)
        #expect(record.bytesIn == seen.sent)
    }

    @Test(
        "plain HTTP forwards exactly the head and Content-Length body; a pipelined request never reaches the server")
    func forwardsOneRequestOnly() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"])
        defer { harness.proxy.stop() }
        let fd = try harness.client()
        let authority = "127.0.0.1:\(server.port)"
        #expect(
            Loopback.send(
                fd,
                "POST http://\(authority)/x HTTP/1.1\r\nHost: \(authority)\r\nContent-Length: 5\r\n\r\nhello"
                    + "GET http://\(authority)/y HTTP/1.1\r\nHost: evil.test\r\n\r\n"))
        let response = String(decoding: Loopback.readAll(fd), as: UTF8.self)
        close(fd)
        #expect(response.hasSuffix("hello from /x\n"))
        let seen = try #require(server.finished(atLeast: 1).first)
        let expectedHead = "POST /x HTTP/1.1\r\nHost: \(authority)\r\nContent-Length: 5\r\nConnection: close\r\n\r\n"
        #expect(seen.received == expectedHead.utf8.count + 5)
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(record.bytesOut == seen.received)
        #expect(record.bytesIn == seen.sent)
        #expect(server.accepted == 1)
    }

    struct Denial: Sendable, CustomTestStringConvertible {
        var name: String
        /// Entries; `PORT` is replaced by the test server's port.
        var allow: [String]
        var deny: [String] = []
        var resolver: [String: [String]] = ["allowed.test": ["127.0.0.1"], "evil.test": ["127.0.0.1"]]
        var request: Request
        var host: String
        var portOffset: UInt16 = 0
        var rule: String
        var testDescription: String { name }

        enum Request: Sendable {
            case connect(String)
            case http(uri: String, hostHeader: String)
            case socks([UInt8])
        }
    }

    static let both = ["allowed.test:PORT", "127.0.0.1:PORT"]

    @Test(
        "denials answer 403 or SOCKS 0x02, are recorded and reported, and never connect",
        arguments: [
            Denial(
                name: "no rule", allow: both, request: .connect("evil.test:PORT"), host: "evil.test",
                rule: "no rule matches"),
            Denial(
                name: "wrong port", allow: both, request: .connect("allowed.test:PORT+1"), host: "allowed.test",
                portOffset: 1, rule: "no rule matches"),
            Denial(
                name: "forged Host header", allow: both,
                request: .http(uri: "http://allowed.test:PORT/", hostHeader: "evil.test:PORT"), host: "allowed.test",
                rule: "Host header 'evil.test:PORT' does not match allowed.test:PORT"),
            Denial(
                name: "unlisted IP literal of an allowed name", allow: ["allowed.test:PORT"],
                request: .connect("127.0.0.1:PORT"), host: "127.0.0.1", rule: "no rule matches"),
            Denial(
                name: "public name rebinding to 127.0.0.1", allow: ["public.test:PORT"],
                resolver: ["public.test": ["127.0.0.1"]], request: .connect("public.test:PORT"), host: "public.test",
                rule: "private address 127.0.0.1 not allowed"),
            Denial(
                name: "plain HTTP rebinding", allow: ["public.test:PORT"], resolver: ["public.test": ["::1"]],
                request: .http(uri: "http://public.test:PORT/", hostHeader: "public.test:PORT"), host: "public.test",
                rule: "private address ::1 not allowed"),
            Denial(
                name: "SOCKS5 IPv4-mapped IPv6", allow: both,
                request: .socks([4] + [UInt8](repeating: 0, count: 10) + [0xFF, 0xFF, 127, 0, 0, 1]),
                host: "::ffff:127.0.0.1", rule: "no rule matches"),
            Denial(
                name: "SOCKS5 mapped address as a name", allow: both, request: .socks(domain("::ffff:127.0.0.1")),
                host: "::ffff:127.0.0.1", rule: "no rule matches"),
            Denial(
                name: "CONNECT to an IPv4-mapped IPv6 literal", allow: both,
                request: .connect("[::ffff:127.0.0.1]:PORT"), host: "::ffff:127.0.0.1", rule: "no rule matches"),
            Denial(
                name: "plain HTTP to an unlisted literal", allow: ["allowed.test:PORT"],
                request: .http(uri: "http://127.0.0.1:PORT/", hostHeader: "127.0.0.1:PORT"), host: "127.0.0.1",
                rule: "no rule matches"),
            Denial(
                name: "SOCKS5 unlisted name", allow: both, request: .socks(domain("evil.test")), host: "evil.test",
                rule: "no rule matches"),
            Denial(
                name: "deny entry wins", allow: both + ["*.test:PORT"], deny: ["evil.test:PORT"],
                request: .connect("evil.test:PORT"), host: "evil.test", rule: "deny evil.test:PORT"),
        ])
    func denied(_ c: Denial) throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let port = server.port
        func fill(_ text: String) -> String {
            text.replacingOccurrences(of: "PORT+1", with: "\(port + 1)").replacingOccurrences(
                of: "PORT", with: "\(port)")
        }
        let harness = try ProxyHarness(
            allow: c.allow.map(fill), deny: c.deny.map(fill), resolver: c.resolver)
        defer { harness.proxy.stop() }
        let expectedRule = fill(c.rule)
        switch c.request {
        case .connect(let target):
            let (fd, head) = try Self.connectTunnel(harness, to: fill(target))
            let rest = String(decoding: Loopback.readAll(fd), as: UTF8.self)
            close(fd)
            #expect(head.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
            #expect(rest.contains("(\(expectedRule))"))
        case .http(let uri, let hostHeader):
            let fd = try harness.client()
            #expect(Loopback.send(fd, "GET \(fill(uri)) HTTP/1.1\r\nHost: \(fill(hostHeader))\r\n\r\n"))
            let response = String(decoding: Loopback.readAll(fd), as: UTF8.self)
            close(fd)
            #expect(response.hasPrefix("HTTP/1.1 403 Forbidden\r\n"))
            #expect(response.contains("(\(expectedRule))"))
        case .socks(let address):
            let (fd, reply) = try Self.socks(harness, address: address, port: port)
            close(fd)
            #expect(reply.count >= 2 && reply[1] == 0x02)
        }
        let record = try #require(harness.records(atLeast: 1).first)
        #expect(!record.allowed)
        #expect(record.host == c.host)
        #expect(record.port == Int(port + c.portOffset))
        #expect(record.rule == expectedRule)
        #expect(record.bytes == 0)
        #expect(harness.denied == [record])
        #expect(record.denialLine == "sentinel: egress denied: \(record.destination) (\(expectedRule))")
        usleep(50_000)
        #expect(server.accepted == 0)
    }

    @Test(
        "numeric look-alikes of loopback are refused with 400 and never connect",
        arguments: ["0x7f000001", "127.1", "2130706433", "0177.0.0.1", "127.0.0.1.", "[127.0.0.1]"])
    func numericLookAlikes(host: String) throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(
            allow: ["allowed.test:\(server.port)"], resolver: ["allowed.test": ["127.0.0.1"]])
        defer { harness.proxy.stop() }
        let (fd, head) = try Self.connectTunnel(harness, to: "\(host):\(server.port)")
        close(fd)
        #expect(head.hasPrefix("HTTP/1.1 400 Bad Request"))
        #expect(harness.proxy.records.isEmpty)
        usleep(50_000)
        #expect(server.accepted == 0)
    }
}
