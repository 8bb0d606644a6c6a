import Foundation
import Testing

/// `sentinel-cli` sets jemalloc's options through the `malloc_conf` symbol (CSystem): one arena
/// per CPU. The symbol works only if the executable exports it to libjemalloc, which a linker
/// change could silently undo; jemalloc's own statistics say which options it read. Where the
/// process may not run on every CPU (taskset, a container's cpuset), jemalloc falls back to its
/// default arenas and would say so on every start: CSystem's `malloc_message` keeps that notice
/// off standard error, and passes every other message on.
@Suite struct AllocatorCLITests {
    /// Whether the CPUs this process may run on are all the machine's, as jemalloc checks.
    private static func cpusAreDeterministic() throws -> Bool {
        let counts = try [["nproc"], ["getconf", "_NPROCESSORS_ONLN"], ["getconf", "_NPROCESSORS_CONF"]].map { command in
            try CLI.runProgram("/usr/bin/env", command).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return Set(counts).count == 1
    }

    @Test("sentinel-cli's allocator runs one arena per CPU, and MALLOC_CONF still applies after it")
    func arenasPerCPU() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_CONF"] = "stats_print:true"
        let run = try CLI.runProgram(CLI.fullBinary, ["--version"], environment: environment)
        #expect(run.status == 0)
        let expected = try Self.cpusAreDeterministic() ? "percpu" : "disabled"
        #expect(run.stderr.contains("opt.percpu_arena: \"\(expected)\""), "\(run.stderr.prefix(2000))")
        environment["MALLOC_CONF"] = "stats_print:true,percpu_arena:disabled"
        let overridden = try CLI.runProgram(CLI.fullBinary, ["--version"], environment: environment)
        #expect(overridden.stderr.contains("opt.percpu_arena: \"disabled\""))
        // Other messages still reach standard error.
        environment["MALLOC_CONF"] = "no_such_option:1"
        let invalid = try CLI.runProgram(CLI.fullBinary, ["--version"], environment: environment)
        #expect(invalid.stderr.contains("<jemalloc>: Invalid conf pair: no_such_option:1"))
    }

    @Test("on fewer CPUs than the machine has (taskset), sentinel-cli says nothing of its allocator")
    func pinnedToOneCPU() throws {
        guard ProcessInfo.processInfo.activeProcessorCount > 1 else { return }
        let run = try CLI.runProgram("/usr/bin/taskset", ["-c", "0", CLI.fullBinary, "--version"])
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty, "\(run.stderr)")
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_CONF"] = "stats_print:true"
        let stats = try CLI.runProgram("/usr/bin/taskset", ["-c", "0", CLI.fullBinary, "--version"], environment: environment)
        #expect(stats.stderr.contains("opt.percpu_arena: \"disabled\""))
        #expect(!stats.stderr.contains("not deterministic"))
    }
}
