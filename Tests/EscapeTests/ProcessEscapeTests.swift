import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Other processes and namespaces: the sandbox sees and reaches only its own.
    @Suite struct Processes {
        static let namespaceKinds = ["net", "mnt", "user", "pid", "uts", "ipc", "cgroup"]

        @Test("setns into pid 1's namespaces", arguments: namespaceKinds)
        func setnsViaProc(kind: String) throws {
            try SandboxHarness.with { harness in
                expectDenied(
                    try harness.probe(["setns", "/proc/1/ns/\(kind)"]),
                    Attempt("setns", denied: "EACCES", "EPERM"))
            }
        }

        /// The test's own pid exists on the host but not in the sandbox's pid namespace.
        @Test func hostPidsCannotBeSignalled() throws {
            try SandboxHarness.with { harness in
                expectDenied(try harness.probe(["kill-pid", String(getpid())]), Attempt("kill-pid", denied: "ESRCH"))
            }
        }

        /// When the probe is pid 1 itself, kill(1) would target itself: not an escape either way.
        @Test func initCannotBeKilled() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["kill-init"])
                let held =
                    run.output == ProbeOutput("DENIED kill-init EPERM")
                    || run.output == ProbeOutput("INFO kill-init pid1=self")
                #expect(held, "\(run.summary)")
            }
        }

        @Test func onlyAHandfulOfPidsAreVisible() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["ps"])
                let count = try #require(run.output?.fields["pids"].flatMap { Int($0) }, "\(run.summary)")
                #expect(count >= 1 && count < 5, "\(run.summary)")
            }
        }

        /// Every namespace differs from the host's: user, pid, net, mnt, uts, ipc, cgroup.
        @Test func namespacesAreNew() throws {
            try SandboxHarness.with { harness in
                let run = try harness.probe(["ns-ids"])
                #expect(run.output?.kind == .info, "\(run.summary)")
                for kind in Self.namespaceKinds {
                    let inside = run.output?.fields[kind]
                    #expect(
                        inside != nil && inside != "?" && inside != TestHost.namespaceID(kind),
                        "\(kind) namespace shared with the host: \(run.summary)")
                }
            }
        }
    }
}
