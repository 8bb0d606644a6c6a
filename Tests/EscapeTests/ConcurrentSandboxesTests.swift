import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

extension EscapeBattery {
    /// Sixteen sandboxes at once under the five shipped profiles: none can see, signal, reach
    /// or use up another. Each holds a loopback listener (and half of them every pipe page their
    /// host uid may have) while it looks for the others: their host pids, workspaces and ports,
    /// which the host hands to each once all hold.
    @Suite struct ConcurrentSandboxes {
        static let profiles = ["minimal", "scan-bandit", "scan-semgrep", "dast", "fix-verify"]
        static let count = 16
        static let basePort = 41000

        /// One sandbox's part: hold, wait for the host's list of the others, try each, report.
        static func script(port: Int, pipes: Int, hold: String, go: String) -> String {
            """
            P=/workspace/sentinel-probe
            $P occupy \(port) \(pipes) \(hold) > /tmp/occupy.out 2>&1 &
            n=0
            while [ ! -e \(go) ] && [ $n -lt 6000 ]; do sleep 0.1; n=$((n + 1)); done
            . \(go)
            $P ps
            for pid in $PIDS; do $P kill-pid $pid; done
            for dir in $DIRS; do $P list-dir $dir; done
            for port in $PORTS; do $P connect-tcp 127.0.0.1 $port; done
            $P connect-tcp 127.0.0.1 \(port)
            if [ \(pipes) = 0 ]; then $P pipe-pages 1; fi
            : > /tmp/checked
            wait
            cat /tmp/occupy.out
            """
        }

        /// Every verdict line of a run's output.
        static func verdicts(_ run: SandboxRun) -> [ProbeOutput] {
            run.result.stdout.split(separator: "\n").compactMap { ProbeOutput(String($0)) }
        }

        @Test func sixteenSandboxesCannotSeeSignalReachOrExhaustEachOther() throws {
            let harnesses = try (0..<Self.count).map { _ in try SandboxHarness() }
            defer { harnesses.forEach { $0.remove() } }
            let shared = try TemporaryDirectory(prefix: "sentinel-concurrent")
            defer { shared.remove() }
            chmod(shared.path, 0o755)

            let members = try harnesses.enumerated().map { index, harness in
                try HeldProbe(
                    harness, holding: "occupy",
                    command: { hold in
                        [
                            "/bin/sh", "-c",
                            Self.script(
                                port: Self.basePort + index, pipes: index % 2 == 0 ? 4096 : 0, hold: hold,
                                go: shared.path + "/go-\(index)"),
                        ]
                    },
                    flags: ["--profile", Self.profiles[index % Self.profiles.count], "--bind-ro", shared.path])
            }
            let holdDeadline = Date().addingTimeInterval(300)
            let pids = members.map { $0.waitUntilHolding(deadline: holdDeadline) }
            let ids = pids.map { $0.flatMap(TestHost.hostIDs(of:)) }
            // Each sandbox gets the others' host pids, workspaces and ports.
            for index in 0..<Self.count {
                let others = (0..<Self.count).filter { $0 != index }
                let text = """
                    PIDS="\(others.compactMap { pids[$0].map(String.init) }.joined(separator: " "))"
                    DIRS="\(others.map { harnesses[$0].path }.joined(separator: " "))"
                    PORTS="\(others.map { String(Self.basePort + $0) }.joined(separator: " "))"

                    """
                let go = shared.path + "/go-\(index)"
                try text.write(toFile: go + ".new", atomically: false, encoding: .utf8)
                chmod(go + ".new", 0o644)
                rename(go + ".new", go)
            }
            // The hogs keep their pipes until every sandbox has looked.
            let deadline = Date().addingTimeInterval(300)
            while Date() < deadline,
                !pids.allSatisfy({ pid in pid.map { access("/proc/\($0)/root/tmp/checked", F_OK) == 0 } ?? true })
            {
                usleep(50_000)
            }
            let runs = members.map { member in Result { try member.release() } }

            #expect(pids.allSatisfy { $0 != nil }, "not every sandbox held: \(runs.map { (try? $0.get())?.summary ?? "?" })")
            let uids = ids.compactMap { $0?.uid }
            #expect(uids.count == Self.count && Set(uids).count == Self.count, "host uids \(uids)")
            #expect(Set(ids.compactMap { $0?.gid }).count == Self.count, "host gids \(ids.map { $0?.gid ?? 0 })")
            #expect(!uids.contains(0) && !uids.contains(65534), "host uids \(uids)")

            for (index, outcome) in runs.enumerated() {
                let run = try outcome.get()
                let label = "sandbox \(index) (\(Self.profiles[index % Self.profiles.count])): \(run.summary)"
                #expect(run.result.status == 0, "\(label)")
                let lines = Self.verdicts(run)
                let ps = lines.first { $0.verb == "ps" }
                #expect(ps.flatMap { $0.fields["pids"].flatMap(Int.init) }.map { $0 <= 8 } == true, "\(label)")
                let kills = lines.filter { $0.verb == "kill-pid" }
                #expect(kills.count == Self.count - 1 && kills.allSatisfy { $0.kind == .denied }, "\(label)")
                let lists = lines.filter { $0.verb == "list-dir" }
                #expect(lists.count == Self.count - 1 && lists.allSatisfy { $0.denial == "ENOENT" }, "\(label)")
                let connects = lines.filter { $0.verb == "connect-tcp" }
                #expect(connects.count == Self.count, "\(label)")
                #expect(connects.dropLast().allSatisfy { $0.denial == "ECONNREFUSED" }, "another's port answered: \(label)")
                #expect(connects.last?.kind == .escaped, "its own listener did not answer: \(label)")
                let occupy = lines.first { $0.verb == "occupy" }
                if index % 2 == 0 {
                    #expect(occupy?.fields["stop"] == "EPERM", "the hog did not reach its quota: \(label)")
                } else {
                    let pipe = lines.first { $0.verb == "pipe-pages" }
                    #expect(pipe?.kind == .info && pipe?.fields["pipes"] == "1", "a hog's quota was this one's: \(label)")
                }
            }
        }
    }
}
