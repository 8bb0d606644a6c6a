import Testing

@testable import Egress

#if canImport(Glibc)
    import Glibc
#endif

/// True when the environment asks for the (slow, machine-dependent) measurements.
let egressBenchEnabled = getenv("SENTINEL_BENCH").map { String(cString: $0) == "1" } ?? false

/// Throughput and latency through the proxy against direct connections to the same
/// loopback server in the same run. Gated: `SENTINEL_BENCH=1` (bench/egress-throughput.sh). It
/// prints the figures; the script compares them with the targets (no speed is asserted here).
@Suite("Egress bench", .serialized, .enabled(if: egressBenchEnabled, "set SENTINEL_BENCH=1 to measure"))
struct EgressBenchTests {
    static let downloadBytes = 100 * 1024 * 1024
    static let smallRequests = 1000

    static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let started = ContinuousClock.now
        try body()
        let (s, atto) = started.duration(to: .now).components
        return Double(s) + Double(atto) / 1e18
    }

    /// User plus system CPU time of this process so far.
    static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
        return user + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// Best of `runs` (least disturbed by the other builders on the machine).
    static func best(_ runs: Int, _ body: () throws -> Double) rethrows -> Double {
        var result = Double.infinity
        for _ in 0..<runs { result = min(result, try body()) }
        return result
    }

    @Test("100 MB download and 1,000 small requests: proxy vs direct")
    func measure() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        let harness = try ProxyHarness(allow: ["127.0.0.1:\(server.port)"])
        defer { harness.proxy.stop() }
        let big = "GET /bytes/\(Self.downloadBytes) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

        // Interleaved direct/proxy pairs; the ratio of each pair is taken (both runs saw
        // about the same load from the other builders), then the median over the pairs.
        func download(_ harness: ProxyHarness?) throws -> Double {
            try Self.seconds {
                let fd: Int32
                if let harness {
                    let tunnel = try EgressProxyTests.connectTunnel(harness, to: "127.0.0.1:\(server.port)")
                    fd = tunnel.fd
                } else {
                    fd = try Loopback.connect(port: server.port)
                }
                Loopback.send(fd, big)
                #expect(Loopback.drain(fd) > Self.downloadBytes)
                close(fd)
            }
        }
        var directTimes: [Double] = []
        var ratios: [Double] = []
        // Process CPU seconds per mode (client and server threads are the same in each, so
        // the differences are the relay's own cost).
        var cpu = [0.0, 0.0]
        for _ in 0..<7 {
            var before = Self.cpuSeconds()
            let direct = try download(nil)
            cpu[0] += Self.cpuSeconds() - before
            directTimes.append(direct)
            before = Self.cpuSeconds()
            ratios.append(direct / (try download(harness)))
            cpu[1] += Self.cpuSeconds() - before
        }
        print(String(format: "egress-bench: CPU seconds for 7 x 100 MB: direct %.2f, proxy %.2f", cpu[0], cpu[1]))
        let direct = Self.median(directTimes)
        let ratio = Self.median(ratios)
        let small = "GET /bytes/100 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        let forward = "GET http://127.0.0.1:\(server.port)/bytes/100 HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        let directSmall = try Self.best(2) {
            try Self.seconds {
                for _ in 0..<Self.smallRequests {
                    let fd = try Loopback.connect(port: server.port)
                    Loopback.send(fd, small)
                    #expect(Loopback.drain(fd) > 100)
                    close(fd)
                }
            }
        }
        let proxiedSmall = try Self.best(2) {
            try Self.seconds {
                for _ in 0..<Self.smallRequests {
                    let fd = try harness.client()
                    Loopback.send(fd, forward)
                    #expect(Loopback.drain(fd) > 100)
                    close(fd)
                }
            }
        }
        let mb = Double(Self.downloadBytes) / 1_048_576
        let addedMs = (proxiedSmall - directSmall) / Double(Self.smallRequests) * 1000
        print(
            String(
                format: "egress-bench: download direct %.0f MB/s, proxy %.0f MB/s, ratio %.2f (median of 7 pairs)",
                mb / direct, mb / direct * ratio, ratio))
        print(
            String(
                format: "egress-bench: %d small requests direct %.1f ms/req, proxy %.1f ms/req, added %.3f ms/req",
                Self.smallRequests, directSmall * 1000 / Double(Self.smallRequests),
                proxiedSmall * 1000 / Double(Self.smallRequests), addedMs))
    }
}
