import ArgumentParser
import Fleet

/// `sentinel fleet submit noop`: a job that runs nothing, for benchmarks and health checks.
struct FleetSubmitNoopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noop",
        abstract: "Queue a job that runs nothing: claimed, recorded as succeeded with an empty result, audited (benchmarks, health checks)."
    )
    @OptionGroup var queue: FleetQueueOptions

    func run() throws {
        try queue.submit(FleetJobSpec(kind: .noop), repository: "", branch: "")
    }
}
