import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// The kernel counts some quotas per host uid (epoll watches, pipe pages, unix fds in
    /// flight): sandboxes sharing one host uid share them, and one can use up another's. Each
    /// concurrent sandbox of a root launcher has a host uid/gid of its own, from a range the
    /// operator may change (`SENTINEL_ID_RANGE`).
    @Suite struct Identity {
        /// The default range (README, `HostIDRange.standard`).
        static let defaultRange: ClosedRange<UInt32> = 0x7000_0000...0x7000_FFFF

        /// The environment of the tests with `SENTINEL_ID_RANGE` set.
        static func environment(range: String) -> [String: String] {
            ProcessInfo.processInfo.environment.merging(["SENTINEL_ID_RANGE": range]) { _, new in new }
        }

        /// An id range for one test only: outside the default range, so the other suites'
        /// sandboxes never compete for it.
        static func privateRange(_ index: UInt32, count: UInt32 = 1) -> (start: UInt32, text: String) {
            let start = 0x7100_0000 + UInt32(getpid() % 0x1000) * 0x100 + index * 0x10
            return (start, "\(start):\(count)")
        }

        /// Two sandboxes running at once show the host different uids and gids, neither root's,
        /// `nobody`'s nor the other's, both from the default range.
        @Test func concurrentSandboxesHaveDistinctHostIDs() throws {
            try SandboxHarness.with { first in
                try SandboxHarness.with { second in
                    let held = try [first, second].map { try HeldProbe($0, ["occupy", "0", "0"]) }
                    let pids = held.map { $0.waitUntilHolding() }
                    let ids = pids.map { $0.flatMap(TestHost.hostIDs(of:)) }
                    let runs = held.map { try? $0.release() }
                    #expect(pids.allSatisfy { $0 != nil }, "\(runs.map { $0?.summary ?? "?" })")
                    let uids = ids.compactMap { $0?.uid }
                    let gids = ids.compactMap { $0?.gid }
                    #expect(uids.count == 2 && Set(uids).count == 2, "both sandboxes run as host uid \(uids)")
                    #expect(gids.count == 2 && Set(gids).count == 2, "both sandboxes run as host gid \(gids)")
                    for uid in uids + gids {
                        #expect(Self.defaultRange.contains(uid), "host id \(uid) is outside the default range")
                    }
                }
            }
        }

        /// Pipe pages count per host uid against fs.pipe-user-pages-soft: one sandbox holding
        /// all of its uid's must leave another sandbox able to grow a pipe.
        @Test func aPerUIDQuotaUsedUpInOneSandboxLeavesAnotherItsOwn() throws {
            try SandboxHarness.with { harness in
                let hog = try HeldProbe(harness, ["pipe-pages", "4096"])
                let holding = hog.waitUntilHolding()
                let other = holding != nil ? try harness.probe(["pipe-pages", "1"], timeout: 120) : nil
                let hogRun = try hog.release()
                #expect(holding != nil, "the first sandbox never held its pipes: \(hogRun.summary)")
                #expect(hogRun.output?.fields["stop"] == "EPERM", "the quota was not reached: \(hogRun.summary)")
                if let other {
                    #expect(
                        other.output?.kind == .info && other.output?.fields["pipes"] == "1",
                        "the second sandbox shares the first one's quota: \(other.summary)")
                }
            }
        }

        /// `SENTINEL_ID_RANGE=START:COUNT` is the range; when all of it is in use the launch
        /// fails with a setup error that says so.
        @Test func theOperatorsRangeIsUsedAndItsExhaustionIsAnError() throws {
            let range = Self.privateRange(1)
            try SandboxHarness.with { harness in
                let environment = Self.environment(range: range.text)
                let held = try HeldProbe(harness, ["occupy", "0", "0"], environment: environment)
                let pid = held.waitUntilHolding()
                let ids = pid.flatMap(TestHost.hostIDs(of:))
                let second = pid != nil ? try harness.probe(["euid"], environment: environment, timeout: 120) : nil
                let run = try held.release()
                #expect(ids?.uid == range.start && ids?.gid == range.start, "\(String(describing: ids)) \(run.summary)")
                let result = try #require(second?.result, "the first sandbox never held: \(run.summary)")
                #expect(result.status == 125, "\(result.summary)")
                #expect(result.stderr.contains("no free host id"), "\(result.summary)")
                #expect(result.stderr.contains("SENTINEL_ID_RANGE"), "\(result.summary)")
            }
        }

        /// A launcher killed with SIGKILL gives its id back: the lock is the kernel's, on a
        /// descriptor that dies with the process.
        @Test func aKilledLauncherGivesItsIDBack() throws {
            let range = Self.privateRange(2)
            try SandboxHarness.with { harness in
                let environment = Self.environment(range: range.text)
                let held = try HeldProbe(harness, ["occupy", "0", "0"], environment: environment)
                let pid = try #require(held.waitUntilHolding(), "the sandbox never held")
                // probe -> sandbox init -> launcher
                let launcher = try #require(TestHost.parent(of: pid).flatMap(TestHost.parent(of:)))
                #expect(TestHost.readProcFile("/proc/\(launcher)/cmdline")?.contains("sandbox") == true)
                #expect(kill(launcher, SIGKILL) == 0)
                let killed = try held.release()
                #expect(killed.result.signaled && killed.result.status == SIGKILL, "\(killed.summary)")
                let next = try harness.probe(["euid"], environment: environment, timeout: 120)
                #expect(next.result.status == 0 && next.output?.kind == .info, "the id stayed taken: \(next.summary)")
            }
        }

        /// A malformed or unsafe range is refused with a usage error naming the variable.
        @Test(
            "a bad SENTINEL_ID_RANGE is refused",
            arguments: ["abc", "1879048192", "1879048192:0", "0:65536", "1000:10", "4294901760:65536", "1879048192:-1"])
        func badRangeIsRefused(range: String) throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["euid"], environment: Self.environment(range: range), timeout: 120)
                #expect(run.result.status == 2, "\(run.summary)")
                #expect(run.result.stderr.contains("SENTINEL_ID_RANGE"), "\(run.summary)")
            }
        }
    }
}
