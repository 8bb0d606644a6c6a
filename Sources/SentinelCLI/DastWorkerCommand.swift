import ArgumentParser
import CLICore
import DAST

/// `sentinel dast-worker OPTIONS`: the web scanner's sandboxed half (hidden; `scan --dast` runs
/// it inside the `dast` profile). Prints the result as JSON on stdout.
struct DastWorkerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dast-worker", abstract: "Run the web scanner's worker (inside the sandbox).", shouldDisplay: false)

    @Argument(help: "The options file the parent wrote.") var options: String

    func run() throws {
        let data = try WebScanWorker.run(optionsPath: options)
        Console.write(1, String(decoding: data, as: UTF8.self) + "\n")
    }
}
