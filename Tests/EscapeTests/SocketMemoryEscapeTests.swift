import Foundation
import Sandbox
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// TCP memory a payload can pin outside its memory limit. Linux lets every socket take one
    /// packet past its cgroup's socket-memory limit, and charges a connection to no cgroup until
    /// it is accepted: both multiply with the number of sockets. The sandbox's network namespace
    /// bounds what one socket or one listener can hold (`NetworkNamespaceLimits`).
    @Suite struct SocketMemory {
        /// `net.core.somaxconn` inside: the most connections a listener keeps unaccepted is one more.
        static let somaxconn = 16
        /// What one connection may hold past the group's TCP limit: each of its two sockets one
        /// received and one sent packet, each charged as one page with the loopback's 1500-byte
        /// MTU, and less than a page reserved ahead.
        static let overshootPerConnection: Int64 = 2 * 3 * 4096

        /// 60 processes x 120 loopback connections, both directions filled and never read, with a
        /// 128 MiB memory limit (64 MiB of TCP). With the loopback's 64 KiB packets they reached
        /// the probe's 384 MiB stop after 2,447 connections; now the group's TCP peak, read on the
        /// host, stays within the TCP limit plus `overshootPerConnection` per connection.
        @Test func forcedPacketsStayWithinABoundPerConnection() throws {
            try SandboxHarness.with { harness in
                let peak = Mutex<(limit: Int64, peak: Int64)?>(nil)
                let (run, _) = try KernelQuotas.whileHolding(
                    harness, ["tcp-pin", "60", "120", "384"], flags: ["--memory", "128M"]
                ) {
                    peak.withLock { $0 = TestHost.tcpMemoryCounters(ofProbe: "tcp-pin") }
                    return nil
                }
                #expect(run.output?.kind == .info, "\(run.summary)")
                let connections = try #require(run.output?.fields["connections"].flatMap { Int64($0) }, "\(run.summary)")
                #expect(connections >= 1000, "the attempt did not run at scale: \(run.summary)")
                let counters = try #require(peak.withLock { $0 }, "no v1 TCP counters for the sandbox: \(run.summary)")
                let bound = counters.limit + connections * Self.overshootPerConnection
                #expect(
                    counters.peak <= bound,
                    "TCP peak \(counters.peak) over \(bound) (limit \(counters.limit), \(connections) connections): \(run.summary)")
            }
        }

        /// Connections nobody accepts belong to no cgroup: one listener held 445 of them with
        /// 1 GiB of data (the kernel's default backlog is 4096, and each inherits the listener's
        /// SO_RCVBUF, up to twice the host's rmem_max). Now a listener keeps at most `somaxconn`
        /// + 1, each with the namespace's default buffer (tcp_rmem[1]): SO_RCVBUF has no effect,
        /// and the probe's safety stop (256 MiB) is never reached.
        @Test func unacceptedConnectionsStayFewAndSmallPerListener() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["tcp-backlog", "8", "1000", "256"], timeout: 600)
                #expect(run.output?.kind == .info, "\(run.summary)")
                let most = try #require(run.output?.fields["most"].flatMap { Int($0) }, "\(run.summary)")
                #expect(most >= 1 && most <= Self.somaxconn + 1, "\(run.summary)")
                let rmem = NamespaceSysctl.hostText("net/ipv4/tcp_rmem")?.split(whereSeparator: \.isWhitespace)
                #expect(run.output?.fields["rcvbuf"] == rmem.flatMap { $0.count == 3 ? String($0[1]) : nil }, "\(run.summary)")
            }
        }

        /// The namespace's settings are in place, and the loopback's packets are small.
        @Test func networkLimitsAreSetInside() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["net-limits"])
                let fields = try #require(run.output?.fields, "\(run.summary)")
                #expect(fields["somaxconn"] == String(Self.somaxconn), "\(run.summary)")
                #expect(fields["tcp_wmem"]?.split(separator: ",").first == "1024", "\(run.summary)")
                #expect(fields["lo_mtu"] == "1500", "\(run.summary)")
            }
        }

        /// The payload holds no capability in its namespace: it cannot raise them back.
        @Test(arguments: ["/proc/sys/net/core/somaxconn", "/proc/sys/net/ipv4/tcp_wmem"])
        func payloadCannotRaiseItsNetworkLimits(path: String) throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["proc-sys-write", path])
                expectDenied(run, Attempt("proc-sys-write", denied: "EACCES", "EPERM", "EROFS"))
            }
        }
    }
}

extension TestHost {
    /// The TCP limit and peak (`memory.kmem.tcp.*`) of the v1 memory cgroup of the running probe
    /// whose verb is `verb`, read on the host; nil without such a probe or counters.
    static func tcpMemoryCounters(ofProbe verb: String) -> (limit: Int64, peak: Int64)? {
        let prefix = SandboxHarness.probeInside + " " + verb + " "
        guard let process = processes().first(where: { $0.commandLine.hasPrefix(prefix) }),
            let groups = readProcFile("/proc/\(process.pid)/cgroup")
        else { return nil }
        for line in groups.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, parts[1].split(separator: ",").contains("memory") else { continue }
            let directory = "/sys/fs/cgroup/memory" + parts[2]
            func number(_ name: String) -> Int64? {
                readProcFile(directory + "/" + name).flatMap { Int64($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            }
            guard let limit = number("memory.kmem.tcp.limit_in_bytes"),
                let peak = number("memory.kmem.tcp.max_usage_in_bytes")
            else { return nil }
            return (limit, peak)
        }
        return nil
    }
}
