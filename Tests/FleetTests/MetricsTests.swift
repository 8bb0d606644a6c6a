import Fleet
import Foundation
import Support
import Synchronization
import Testing
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The fleet's observability: the metrics registry's exposition, the server Prometheus scrapes,
/// and the JSON log lines.
@Suite("metrics and logs")
struct MetricsTests {
    // MARK: - Registry

    @Test("a small registry renders exactly: families by name, series by labels, cumulative buckets")
    func exposition() {
        let registry = MetricsRegistry()
        let jobs = registry.counter("sentinel_jobs_total", help: "Jobs finished, by outcome.")
        jobs.increment(labels: ["outcome": "passed", "kind": "scan"])
        jobs.increment(by: 2, labels: ["kind": "scan", "outcome": "failed"])
        jobs.increment(labels: ["outcome": "passed", "kind": "scan"])
        registry.gauge("sentinel_workers_busy", help: "Workers running a job.").set(3)
        let duration = registry.histogram("sentinel_job_duration_seconds", help: "Job run time.", buckets: [0.5, 1, 2.5])
        for seconds in [0.25, 1, 2, 7] { duration.observe(seconds) }

        #expect(
            registry.exposition() == """
                # HELP sentinel_job_duration_seconds Job run time.
                # TYPE sentinel_job_duration_seconds histogram
                sentinel_job_duration_seconds_bucket{le="0.5"} 1
                sentinel_job_duration_seconds_bucket{le="1"} 2
                sentinel_job_duration_seconds_bucket{le="2.5"} 3
                sentinel_job_duration_seconds_bucket{le="+Inf"} 4
                sentinel_job_duration_seconds_sum 10.25
                sentinel_job_duration_seconds_count 4
                # HELP sentinel_jobs_total Jobs finished, by outcome.
                # TYPE sentinel_jobs_total counter
                sentinel_jobs_total{kind="scan",outcome="failed"} 2
                sentinel_jobs_total{kind="scan",outcome="passed"} 2
                # HELP sentinel_workers_busy Workers running a job.
                # TYPE sentinel_workers_busy gauge
                sentinel_workers_busy 3

                """)
    }

    @Test("labelled histograms put le last; gauges go down; fractions keep their digits")
    func labelledHistogramAndGauge() {
        let registry = MetricsRegistry()
        let histogram = registry.histogram("wait_seconds", help: "Queue wait.", buckets: MetricsRegistry.durationBuckets)
        histogram.observe(0.07, labels: ["queue": "default"])
        let inFlight = registry.gauge("in_flight", help: "Jobs in flight.")
        inFlight.add(2)
        inFlight.add(-0.5)
        let lines = registry.exposition().split(separator: "\n").map(String.init)
        #expect(lines.contains("wait_seconds_bucket{queue=\"default\",le=\"0.05\"} 0"))
        #expect(lines.contains("wait_seconds_bucket{queue=\"default\",le=\"0.1\"} 1"))
        #expect(lines.contains("wait_seconds_bucket{queue=\"default\",le=\"600\"} 1"))
        #expect(lines.contains("wait_seconds_bucket{queue=\"default\",le=\"+Inf\"} 1"))
        #expect(lines.contains("wait_seconds_sum{queue=\"default\"} 0.07"))
        #expect(lines.contains("in_flight 1.5"))
        #expect(lines.filter { $0.hasPrefix("wait_seconds_bucket") }.count == MetricsRegistry.durationBuckets.count + 1)
    }

    @Test("label values escape backslash, quote and newline; help escapes backslash and newline")
    func escaping() {
        let registry = MetricsRegistry()
        let counter = registry.counter("escapes_total", help: "Help with \\ and\nnewline \"kept\".")
        counter.increment(labels: ["path": "C:\\dir \"quoted\"\nnext"])
        #expect(
            registry.exposition() == """
                # HELP escapes_total Help with \\\\ and\\nnewline "kept".
                # TYPE escapes_total counter
                escapes_total{path="C:\\\\dir \\"quoted\\"\\nnext"} 1

                """)
    }

    @Test("asking for a metric twice gives the same series; names are checked")
    func registration() {
        let registry = MetricsRegistry()
        registry.counter("runs_total", help: "Runs.").increment()
        registry.counter("runs_total", help: "Runs.").increment(by: 0.5)
        #expect(registry.exposition().contains("\nruns_total 1.5\n"))
        #expect(MetricsRegistry.isValidName("sentinel:jobs_total"))
        #expect(!MetricsRegistry.isValidName("9lives"))
        #expect(!MetricsRegistry.isValidName("jobs-total"))
        #expect(!MetricsRegistry.isValidName(""))
        #expect(MetricsRegistry.isValidLabelName("outcome"))
        #expect(!MetricsRegistry.isValidLabelName("__name__"))
        #expect(!MetricsRegistry.isValidLabelName("a:b"))
    }

    @Test("many threads incrementing one counter give the exact total")
    func concurrentIncrements() {
        let registry = MetricsRegistry()
        let counter = registry.counter("hits_total", help: "Hits.")
        let histogram = registry.histogram("sizes", help: "Sizes.", buckets: [1])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for _ in 0..<5_000 {
                counter.increment(labels: ["parity": thread % 2 == 0 ? "even" : "odd"])
                histogram.observe(2)
            }
        }
        let text = registry.exposition()
        #expect(text.contains("hits_total{parity=\"even\"} 20000\n"))
        #expect(text.contains("hits_total{parity=\"odd\"} 20000\n"))
        #expect(text.contains("sizes_count 40000\n"))
        #expect(text.contains("sizes_bucket{le=\"+Inf\"} 40000\n"))
    }

    // MARK: - Server

    @Test("a scrape over loopback TCP gets 200, the Prometheus content type and the samples")
    func scrape() throws {
        let registry = MetricsRegistry()
        registry.counter("scrapes_seen_total", help: "Seen.").increment(by: 7, labels: ["worker": "w1"])
        let server = try MetricsServer(registry: registry)
        defer { server.stop() }
        #expect(server.port > 0)
        let response = try RawHTTPClient.exchange(port: server.port, "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
        let (head, body) = RawHTTPClient.split(response)
        #expect(head.first == "HTTP/1.0 200 OK")
        #expect(head.contains("Content-Type: text/plain; version=0.0.4"))
        #expect(head.contains("Connection: close"))
        #expect(head.contains("Content-Length: \(body.utf8.count)"))
        #expect(body == registry.exposition())
        #expect(body.contains("scrapes_seen_total{worker=\"w1\"} 7\n"))

        // A query string does not change the path; a bare LF request is understood too.
        let queried = try RawHTTPClient.exchange(port: server.port, "GET /metrics?name[]=x HTTP/1.1\n\n")
        #expect(RawHTTPClient.split(queried).head.first == "HTTP/1.0 200 OK")
    }

    @Test(
        "another path is 404, another method 405, a malformed request line 400",
        arguments: [
            ("GET / HTTP/1.0\r\n\r\n", "HTTP/1.0 404 Not Found"),
            ("GET /metrics/extra HTTP/1.0\r\n\r\n", "HTTP/1.0 404 Not Found"),
            ("POST /metrics HTTP/1.0\r\nContent-Length: 0\r\n\r\n", "HTTP/1.0 405 Method Not Allowed"),
            ("HEAD /metrics HTTP/1.0\r\n\r\n", "HTTP/1.0 405 Method Not Allowed"),
            ("GET /metrics\r\n\r\n", "HTTP/1.0 400 Bad Request"),
            ("GET  /metrics HTTP/1.0\r\n\r\n", "HTTP/1.0 400 Bad Request"),
            ("\r\n\r\n", "HTTP/1.0 400 Bad Request"),
        ])
    func otherRequests(request: String, status: String) throws {
        let server = try MetricsServer(registry: MetricsRegistry())
        defer { server.stop() }
        let (head, _) = RawHTTPClient.split(try RawHTTPClient.exchange(port: server.port, request))
        #expect(head.first == status)
        #expect(head.contains("Connection: close"))
    }

    @Test("garbage, oversized and abandoned connections do not stop the server")
    func hostileClients() throws {
        let registry = MetricsRegistry()
        registry.gauge("alive", help: "Still serving.").set(1)
        let server = try MetricsServer(registry: registry)
        defer { server.stop() }

        // Binary garbage, then end of input.
        let garbage: [UInt8] = [0, 0xFF, 0xFE, 13, 10, 0x80, 0x20, 0x20, 13, 10, 13, 10]
        let garbageReply = try RawHTTPClient.exchange(port: server.port, bytes: garbage, closeWriting: true)
        #expect(RawHTTPClient.split(garbageReply).head.first == "HTTP/1.0 400 Bad Request")

        // Far more than 8 KiB without a line end; the reply may be lost to a reset, the server may not.
        _ = try? RawHTTPClient.exchange(port: server.port, bytes: [UInt8](repeating: 0x41, count: 64 * 1024), closeWriting: true)

        // Connected, then gone before sending anything: closed normally, and reset.
        close(try RawHTTPClient.connect(port: server.port))
        let reset = try RawHTTPClient.connect(port: server.port)
        var resetOnClose = linger(l_onoff: 1, l_linger: 0)
        setsockopt(reset, SOL_SOCKET, SO_LINGER, &resetOnClose, socklen_t(MemoryLayout<linger>.size))
        close(reset)

        // Sends a request, then leaves without reading the answer.
        let leaver = try RawHTTPClient.connect(port: server.port)
        RawHTTPClient.send(leaver, Array("GET /metrics HTTP/1.0\r\n\r\n".utf8))
        close(leaver)

        let (head, body) = RawHTTPClient.split(try RawHTTPClient.exchange(port: server.port, "GET /metrics HTTP/1.0\r\n\r\n"))
        #expect(head.first == "HTTP/1.0 200 OK")
        #expect(body.contains("alive 1\n"))
    }

    @Test("a client that connects and stays silent is given up on, and the next scrape is answered")
    func silentClient() throws {
        let server = try MetricsServer(registry: MetricsRegistry())
        defer { server.stop() }
        let silent = try RawHTTPClient.connect(port: server.port)
        defer { close(silent) }
        // Waits for the server's two-second receive deadline on `silent`; the client allows ten.
        let (head, _) = RawHTTPClient.split(try RawHTTPClient.exchange(port: server.port, "GET /metrics HTTP/1.0\r\n\r\n"))
        #expect(head.first == "HTTP/1.0 200 OK")
        #expect(RawHTTPClient.readToEnd(silent).isEmpty)
    }

    @Test("stop closes the port; a taken port and a non-loopback address are refused")
    func lifecycle() throws {
        let server = try MetricsServer(registry: MetricsRegistry())
        let port = server.port
        let error = try #require(throws: SentinelError.self) { try MetricsServer(registry: MetricsRegistry(), port: port) }
        #expect(error.code == .io)
        #expect(error.message.hasPrefix("127.0.0.1:\(port): bind failed"))
        #expect(error.errno?.rawValue == EADDRINUSE)
        server.stop()
        server.stop()
        #expect(throws: (any Error).self) { try RawHTTPClient.connect(port: port) }

        let wide = try #require(throws: SentinelError.self) { try MetricsServer(registry: MetricsRegistry(), address: "0.0.0.0") }
        #expect(wide.code == .invalidInput)
        #expect(throws: SentinelError.self) { try MetricsServer(registry: MetricsRegistry(), address: "localhost") }
        #expect(throws: SentinelError.self) { try MetricsServer(registry: MetricsRegistry(), port: 70_000) }
        let other = try MetricsServer(registry: MetricsRegistry(), address: "127.0.0.2")
        defer { other.stop() }
        #expect(other.address == "127.0.0.2")
    }

    // MARK: - JSON log

    @Test("a line is one JSON object: ts (RFC 3339 UTC, milliseconds), level, event, then typed fields in order")
    func logLine() throws {
        let sink = LineSink()
        let log = JSONLog(
            redactor: Redactor(secrets: [], shapes: false), clock: { Date(timeIntervalSince1970: 1_700_000_000.5) }, sink: sink.append)
        log.info(
            "job.claimed",
            [
                LogField("job", .string("job-42")), LogField("attempt", .int(-3)), LogField("seconds", .double(1.25)),
                LogField("retry", .bool(true)), LogField("ratio", .double(.nan)), LogField("level", .string("shadowed")),
            ])
        log.warning("lease.expired")
        log.error("store.down")
        let lines = sink.lines
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.hasSuffix("}\n") && $0.filter { $0 == "\n" }.count == 1 })
        #expect(lines[0].hasPrefix(#"{"ts":"2023-11-14T22:13:20.500Z","level":"info","event":"job.claimed","job":"job-42","attempt":-3,"#))

        let object = try Self.object(lines[0])
        #expect(object["ts"] as? String == "2023-11-14T22:13:20.500Z")
        #expect(object["level"] as? String == "info")
        #expect(object["event"] as? String == "job.claimed")
        #expect(object["job"] as? String == "job-42")
        #expect((object["attempt"] as? NSNumber)?.int64Value == -3)
        #expect((object["seconds"] as? NSNumber)?.doubleValue == 1.25)
        #expect(object["retry"] as? Bool == true)
        #expect(object["ratio"] is NSNull)
        #expect(object["field.level"] as? String == "shadowed")
        #expect(try Self.object(lines[1])["level"] as? String == "warning")
        #expect(try Self.object(lines[2])["level"] as? String == "error")
    }

    @Test("secrets in strings are redacted by the injected redactor")
    func logRedaction() throws {
        let sink = LineSink()
        let log = JSONLog(redactor: Redactor(secrets: ["s3cr3t-value-123"]), sink: sink.append)
        log.error("auth s3cr3t-value-123", [LogField("output", .string("token=s3cr3t-value-123; done"))])
        let line = try #require(sink.lines.first)
        #expect(!line.contains("s3cr3t-value-123"))
        let object = try Self.object(line)
        #expect(object["output"] as? String == "token=<redacted>; done")
        #expect(object["event"] as? String == "auth <redacted>")
    }

    @Test("quotes, backslashes and control characters are escaped and round-trip")
    func logEscaping() throws {
        let sink = LineSink()
        let log = JSONLog(redactor: Redactor(secrets: [], shapes: false), sink: sink.append)
        let hostile = "quote\" back\\slash\nnew\rline\ttab\u{0}nul\u{1B}[31mred\u{7F}del\u{2028}sep é 🙂 }{"
        log.info("escape", [LogField("text", .string(hostile)), LogField("k\"ey\n", .int(1))])
        let line = try #require(sink.lines.first)
        #expect(line.dropLast().unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
        #expect(line.contains(#"quote\" back\\slash\u000Anew\u000Dline\u0009tab\u0000nul\u001B[31mred\u007Fdel\u2028sep é 🙂 }{"#))
        let object = try Self.object(line)
        #expect(object["text"] as? String == hostile)
        #expect((object["k\"ey\n"] as? NSNumber)?.intValue == 1)
    }

    @Test("lines written to a descriptor from many threads arrive whole")
    func logToDescriptor() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let log = JSONLog(fd: ends[1], redactor: Redactor(secrets: ["s3cr3t-value-123"]))
        // 8 × 40 lines of about 150 bytes stay under the pipe's 64 KiB: no reader needed meanwhile.
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<40 {
                log.info(
                    "job.progress",
                    [LogField("thread", .int(Int64(thread))), LogField("note", .string(String(repeating: "x", count: 80) + "\(index)"))])
            }
        }
        close(ends[1])
        let text = String(decoding: RawHTTPClient.readToEnd(ends[0]), as: UTF8.self)
        close(ends[0])
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 8 * 40 + 1)
        #expect(lines.last == "")
        for line in lines.dropLast() {
            #expect(try Self.object(String(line))["event"] as? String == "job.progress")
        }
    }

    private static func object(_ line: String) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(parsed as? [String: Any])
    }
}

/// Collects a log's lines, from any thread.
private final class LineSink: Sendable {
    private let collected = Mutex<[String]>([])

    var lines: [String] { collected.withLock { $0 } }

    func append(_ line: String) {
        collected.withLock { $0.append(line) }
    }
}
