import ArgumentParser

/// The `sentinel` command: subcommands live one per file.
public struct Sentinel: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "sentinel",
        abstract: "Run untrusted work in a sandbox, scan code, and heal what breaks.",
        subcommands: []
    )
    public init() {}
}
