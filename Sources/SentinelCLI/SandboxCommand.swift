import ArgumentParser
import CLICore

/// `sentinel sandbox ...`: run commands in the sandbox and inspect profiles.
struct SandboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run a command in the sandbox, or inspect sandbox profiles.",
        subcommands: [SandboxRunCommand.self, SandboxProfilesCommand.self, SandboxCheckCommand.self]
    )
}
