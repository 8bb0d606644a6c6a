import ArgumentParser

/// The `sentinel` command: subcommands live one per file.
public struct Sentinel: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sentinel",
        abstract: "Run untrusted work in a sandbox, scan code, and heal what breaks.",
        version: SentinelVersion.current,
        subcommands: [ScanCommand.self, RulesCommand.self, DatabaseCommand.self, SandboxCommand.self, DoctorCommand.self]
    )
    public init() {}
}

/// The version `sentinel --version` prints.
public enum SentinelVersion {
    public static let current = "0.1.0"
}
