import TestSupport
import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

/// Random, truncated and mutated requests; none of them names a destination the policy allows.
enum FuzzInputs {
    static func seeds(port: UInt16) -> [[UInt8]] {
        [
            Array("CONNECT evil.test:\(port) HTTP/1.1\r\nHost: evil.test:\(port)\r\n\r\n".utf8),
            Array("CONNECT 127.0.0.1:\(port) HTTP/1.1\r\n\r\n".utf8),
            Array("CONNECT [::1]:\(port) HTTP/1.1\r\nUser-Agent: x\r\n\r\n".utf8),
            Array("GET http://evil.test:\(port)/a?b HTTP/1.1\r\nHost: evil.test:\(port)\r\nAccept: */*\r\n\r\n".utf8),
            Array("POST http://127.0.0.1:\(port)/count HTTP/1.0\r\nContent-Length: 3\r\n\r\nabc".utf8),
            [5, 1, 0, 5, 1, 0, 3, 9] + Array("evil.test".utf8) + [UInt8(port >> 8), UInt8(port & 0xFF)],
            [5, 2, 0, 2, 5, 1, 0, 1, 127, 0, 0, 1, UInt8(port >> 8), UInt8(port & 0xFF)],
            [5, 1, 0, 5, 1, 0, 4] + [UInt8](repeating: 0, count: 10) + [
                0xFF, 0xFF, 127, 0, 0, 1, UInt8(port >> 8), UInt8(port & 0xFF),
            ],
            [5, 1, 0, 5, 2, 0, 1, 127, 0, 0, 1, UInt8(port >> 8), UInt8(port & 0xFF)],
        ]
    }

    static func make(_ random: inout SeededRandom, port: UInt16) -> [UInt8] {
        let seeds = seeds(port: port)
        var input = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        switch Int.random(in: 0..<5, using: &random) {
        case 0:
            return (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        case 1:
            return Array(input.prefix(Int.random(in: 0...input.count, using: &random)))
        case 2:
            for _ in 0..<Int.random(in: 1...6, using: &random) where !input.isEmpty {
                let index = Int.random(in: 0..<input.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: input[index] = UInt8.random(in: 0...255, using: &random)
                case 1: input.remove(at: index)
                default: input.insert(UInt8.random(in: 0...255, using: &random), at: index)
                }
            }
            return input
        case 3:
            let start = Int.random(in: 0..<input.count, using: &random)
            let end = Int.random(in: start...input.count, using: &random)
            let repeats = Int.random(in: 1...200, using: &random)
            input.insert(contentsOf: Array(repeating: input[start..<end], count: repeats).joined(), at: start)
            return input
        default:
            let printable = Array("CONNECT GET http:// HTTP/1.1\r\n: []@%.0123456789abc".utf8)
            return (0..<Int.random(in: 0...400, using: &random)).map { _ in printable.randomElement(using: &random)! }
        }
    }
}

@Suite("Egress fuzz")
struct EgressFuzzTests {
    @Test("the parsers survive thousands of random, truncated and mutated requests")
    func parsers() {
        var random = SeededRandom(state: 0x5EED)
        var outcomes = [0, 0, 0]
        for _ in 0..<8_000 {
            let input = FuzzInputs.make(&random, port: UInt16.random(in: 1...65535, using: &random))[...]
            func check<T>(_ outcome: ProxyParseOutcome<T>, statuses: ClosedRange<Int>) {
                switch outcome {
                case .incomplete: outcomes[0] += 1
                case .complete(_, let consumed):
                    outcomes[1] += 1
                    #expect(consumed > 0 && consumed <= input.count)
                case .invalid(let failure):
                    outcomes[2] += 1
                    #expect(statuses.contains(failure.status), "\(failure)")
                    #expect(!failure.reason.isEmpty)
                }
            }
            check(HTTPRequestHead.parse(input), statuses: 400...431)
            check(ConnectRequest.parse(input), statuses: 400...431)
            check(ForwardRequest.parse(input), statuses: 400...431)
            check(SOCKS5.parseGreeting(input), statuses: 0xFF...0xFF)
            check(SOCKS5.parseRequest(input), statuses: 1...8)
        }
        // The generator must exercise all three outcomes, or the test proves little.
        #expect(outcomes.allSatisfy { $0 > 400 }, "\(outcomes)")
    }

    @Test("a live proxy answers malformed requests with 400/403 or closes, and never connects")
    func liveProxy() throws {
        // The fuzzed requests aim at `server`; only `allowedServer` (on ::1, another port) is allowed.
        let server = try TestHTTPServer()
        defer { server.stop() }
        let allowedServer = try TestHTTPServer(ipv6: true)
        defer { allowedServer.stop() }
        let harness = try ProxyHarness(
            allow: ["allowed.test:\(allowedServer.port)", "[::1]:\(allowedServer.port)"],
            resolver: ["allowed.test": ["::1"], "evil.test": ["127.0.0.1"]],
            limits: EgressLimits(requestTimeout: .seconds(2)))
        defer { harness.proxy.stop() }
        var random = SeededRandom(state: 0xF00D)
        var answered = 0
        // Each exchange is bounded by the client's 5 s timeouts; the whole loop by a deadline that
        // only catches a proxy that stopped answering (a loaded machine is slow, not that slow).
        let deadline = ContinuousClock.now + .seconds(600)
        for _ in 0..<1500 {
            guard ContinuousClock.now < deadline else {
                Issue.record("the proxy is too slow to answer malformed requests")
                break
            }
            let input = FuzzInputs.make(&random, port: server.port)
            let fd = try harness.client()
            Loopback.send(fd, input)
            shutdown(fd, Int32(SHUT_WR))
            let response = Loopback.readAll(fd, limit: 64 * 1024)
            close(fd)
            if response.isEmpty { continue }
            answered += 1
            if response.first == 5 {
                // SOCKS: a method answer, then (if any) a failure reply, never success.
                #expect(response.count == 2 || response.count == 12, "\(response)")
                if response.count == 12 { #expect(response[3] != 0, "SOCKS success for \(input)") }
            } else {
                let text = String(decoding: response.prefix(12), as: UTF8.self)
                #expect(["HTTP/1.1 400", "HTTP/1.1 431", "HTTP/1.1 403"].contains(text), "\(text) for \(input)")
            }
        }
        #expect(answered > 300)
        #expect(server.accepted == 0)
        #expect(allowedServer.accepted == 0)
        // Still alive and still correct afterwards.
        let tunnel = try EgressProxyTests.connectTunnel(harness, to: "allowed.test:\(allowedServer.port)")
        close(tunnel.fd)
        #expect(tunnel.head.hasPrefix("HTTP/1.1 200"))
        #expect(waitUntil { allowedServer.accepted == 1 })
    }
}
