import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// The default profile has no network: own namespace, loopback only, no privileged families.
    @Suite struct Network {
        static let families: [Attempt] = [
            Attempt("raw-socket", denied: "EPERM"),
            Attempt("packet-socket", denied: "EAFNOSUPPORT"),
            Attempt("netlink-socket", denied: "EAFNOSUPPORT"),
            Attempt("vsock-socket", denied: "EAFNOSUPPORT"),
            Attempt("socket-family", "inet6-raw", denied: "EPERM"),
            Attempt("connect-tcp", "1.1.1.1", "53", denied: "ENETUNREACH", "EHOSTUNREACH"),
            Attempt("connect-tcp", "10.0.2.2", "80", denied: "ENETUNREACH", "EHOSTUNREACH"),
        ]

        /// A payload hammering hosts the proxy refuses wrote one stderr line per request
        /// (31,771 lines in 10 s) into the caller's log. The first few per destination are
        /// printed, then one line per destination counts the rest; `--status-json` keeps every
        /// decision.
        @Test func refusedEgressFloodsNoLog() throws {
            try SandboxHarness.with { harness in
                let run = try harness.command(
                    [
                        "/usr/bin/curl", "-s", "-o", "/dev/null", "http://denied-a.invalid/[1-300]",
                        "http://denied-b.invalid:8080/[1-40]",
                    ],
                    flags: ["--allow", "127.0.0.1:9"], timeout: 300)
                #expect(run.status?.egressDenied["denied-a.invalid:80"] == 300, "\(run.summary)")
                #expect(run.status?.egressDenied["denied-b.invalid:8080"] == 40, "\(run.summary)")
                let lines = run.result.stderr.split(separator: "\n").filter { $0.hasPrefix("sentinel: egress denied") }
                #expect(lines.count <= 12, "\(lines.count) denial lines: \(run.summary)")
                for (destination, total) in [("denied-a.invalid:80", 300), ("denied-b.invalid:8080", 40)] {
                    let shown = lines.filter { $0.hasPrefix("sentinel: egress denied: \(destination) (") }.count
                    let counted = lines.compactMap { line -> Int? in
                        let words = line.split(separator: " ")
                        guard line.hasSuffix(" more requests to \(destination) not shown"), words.count > 3 else { return nil }
                        return Int(words[3])
                    }
                    #expect(shown >= 1 && shown + counted.reduce(0, +) == total, "\(destination): \(lines)")
                }
            }
        }

        @Test("socket attempt denied", arguments: families)
        func denied(attempt: Attempt) throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(attempt.arguments, flags: attempt.flags), attempt)
            }
        }

        /// Families nothing sandboxed needs, several with kernel-bug histories: closed, whether
        /// by the filter (EAFNOSUPPORT) or by missing capabilities (EPERM).
        static let closedFamilies = [
            "alg", "key", "tipc", "rds", "can", "bluetooth", "xdp", "llc", "x25", "inet-packet",
        ]

        @Test("unneeded socket family closed", arguments: closedFamilies)
        func closedFamily(name: String) throws {
            try SandboxHarness.with { harness in
                expectDenied(
                    try harness.probe(["socket-family", name]),
                    Attempt("socket-family", denied: "EAFNOSUPPORT", "EPERM"))
            }
        }

        /// Protocols on the kept families that only a missing capability, or nothing, stopped:
        /// Multipath TCP, UDP-Lite, SCTP. Refused as a kernel without them would, so a program
        /// that tries MPTCP first falls back to TCP.
        static let closedProtocols = ["mptcp", "mptcp6", "udplite", "udplite6", "sctp"]

        @Test("unneeded protocol closed", arguments: closedProtocols)
        func closedProtocol(name: String) throws {
            try SandboxHarness.with { harness in
                expectDenied(
                    try harness.probe(["socket-family", name]),
                    Attempt("socket-family", denied: "EPROTONOSUPPORT"))
            }
        }

        /// 127.0.0.1 inside is the sandbox's own loopback: the host listener is never reached.
        @Test func hostLoopbackTcpIsUnreachable() throws {
            let listener = try HostSocket.tcpListener()
            defer { listener.close() }
            try SandboxHarness.with { harness in
                let run = try harness.probe(["connect-tcp", "127.0.0.1", String(listener.port)])
                expectDenied(run, Attempt("connect-tcp", denied: "ECONNREFUSED"))
                #expect(!listener.receivedSomething(within: 0.2), "the host listener got a connection")
            }
        }

        @Test func hostLoopbackUdpReceivesNothing() throws {
            let receiver = try HostSocket.udpReceiver()
            defer { receiver.close() }
            try SandboxHarness.with { harness in
                let run = try harness.probe(["udp-send", "127.0.0.1", String(receiver.port)])
                expectDenied(run, Attempt("udp-send", denied: "ECONNREFUSED", "ENETUNREACH"))
                #expect(!receiver.receivedSomething(within: 0.5), "the host UDP socket received a datagram")
            }
        }

        /// Abstract Unix sockets belong to the network namespace (the X11/D-Bus escape route).
        @Test func hostAbstractSocketIsUnreachable() throws {
            let name = "sentinel-escape-\(getpid())"
            let listener = try HostSocket.abstractListener(name: name)
            defer { listener.close() }
            try SandboxHarness.with { harness in
                expectDenied(
                    try harness.probe(["connect-abstract", name]),
                    Attempt("connect-abstract", denied: "ECONNREFUSED"))
                #expect(!listener.receivedSomething(within: 0.2))
            }
        }

        /// Well-known host daemons' sockets (container engines, the system bus) are not there.
        @Test(arguments: [
            "/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
            "/run/dbus/system_bus_socket", "/run/systemd/private",
        ])
        func wellKnownHostSocketIsAbsent(path: String) throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(["connect-unix", path]), Attempt("connect-unix", denied: "ENOENT"))
            }
        }

        @Test func hostUnixSocketPathIsNotThere() throws {
            let dir = try TemporaryDirectory(prefix: "sentinel-escape-sock")
            defer { dir.remove() }
            let listener = try HostSocket.unixListener(path: dir.path + "/s")
            defer { listener.close() }
            try SandboxHarness.with { harness in
                expectDenied(
                    try harness.probe(["connect-unix", dir.path + "/s"]),
                    Attempt("connect-unix", denied: "ENOENT"))
            }
        }

        /// Name resolution fails without waiting for a resolver: glibc waits 5 s (RES_TIMEOUT) per
        /// attempt for a nameserver that does not answer, so the lookup itself (as the probe times
        /// it, not the loaded machine's sandbox start) stays under that; it takes ~1 ms.
        @Test func dnsFailsFast() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["dns", "example.com"], timeout: 60)
                #expect(run.output?.kind == .denied, "\(run.summary)")
                let ms = try #require(Self.reportedMilliseconds(run.result.stderr), "\(run.summary)")
                #expect(ms < 5000, "\(run.summary)")
            }
        }

        @Test func onlyLoopbackExists() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["ifaces"])
                #expect(run.output == ProbeOutput("INFO ifaces count=1 names=lo"), "\(run.summary)")
            }
        }

        /// The probe's stderr says `dns: EAI_... after N ms`.
        static func reportedMilliseconds(_ stderr: String) -> Int? {
            guard let range = stderr.range(of: " after ") else { return nil }
            return Int(stderr[range.upperBound...].prefix { $0.isNumber })
        }
    }
}
