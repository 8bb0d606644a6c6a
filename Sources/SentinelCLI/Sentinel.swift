import ArgumentParser
import CLICore

/// The `sentinel` command: subcommands live one per file.
public struct Sentinel: ParsableCommand {
    /// The command name, one-line abstract, version and subcommand list.
    public static let configuration = CommandConfiguration(
        commandName: "sentinel",
        abstract: "Run untrusted work in a sandbox, scan code, and heal what breaks.",
        version: SentinelVersion.current,
        subcommands: [
            ScanCommand.self, HealCommand.self, MemoryCommand.self, ProposalsCommand.self, AuditCommand.self, RulesCommand.self,
            DatabaseCommand.self, ConfigCommand.self, InitCommand.self, FleetCommand.self,
            SandboxCommand.self, DoctorCommand.self, DastWorkerCommand.self,
        ]
    )
    /// Makes the root command; ArgumentParser fills it from the command line.
    public init() {}
}
