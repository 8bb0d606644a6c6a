import Foundation
import Testing

/// `sentinel-cli` sets jemalloc's options through the `malloc_conf` symbol (CSystem): one arena
/// per CPU. The symbol works only if the executable exports it to libjemalloc, which a linker
/// change could silently undo; jemalloc's own statistics say which options it read.
@Suite struct AllocatorCLITests {
    @Test("sentinel-cli's allocator runs one arena per CPU, and MALLOC_CONF still applies after it")
    func arenasPerCPU() throws {
        var environment = ProcessInfo.processInfo.environment
        environment["MALLOC_CONF"] = "stats_print:true"
        let run = try CLI.runProgram(CLI.fullBinary, ["--version"], environment: environment)
        #expect(run.status == 0)
        #expect(run.stderr.contains("opt.percpu_arena: \"percpu\""), "\(run.stderr.prefix(2000))")
        environment["MALLOC_CONF"] = "stats_print:true,percpu_arena:disabled"
        let overridden = try CLI.runProgram(CLI.fullBinary, ["--version"], environment: environment)
        #expect(overridden.stderr.contains("opt.percpu_arena: \"disabled\""))
    }
}
