import ArgumentParser
import Foundation
import CLICore
import Sandbox
import Support

/// Parses arguments, runs the command, and maps every outcome to an exit status in one place:
/// a `SentinelError` exits with its code's status (DESIGN §3), usage errors with 2, a command's
/// own status (`ExitCode`) passes through.
public enum SentinelMain {
    /// Runs `sentinel ARGUMENTS` and returns the status to exit with.
    public static func run(_ arguments: [String]) -> Int32 {
        LaunchTrace.mark("start")
        do {
            var command = try parse(bareProveSpelled(arguments))
            try command.run()
            return 0
        } catch {
            return report(error)
        }
    }

    /// The command `arguments` name, parsed. ArgumentParser builds the argument set of every
    /// command in the tree to parse any one of them, and each set asks the runtime about its
    /// options' types: parsing was 14 % of the CPU of a small scan (the launcher and the analysis
    /// it starts each parse the same line), 11 % against the command alone. A line naming one of
    /// `leafCommands` and nothing the parser answers itself (help, version, completion) is parsed
    /// against that command alone; a line it refuses is parsed again through the whole tree, so
    /// every usage error, help and version text is the tree's.
    static func parse(_ arguments: [String]) throws -> any ParsableCommand {
        // The leaf's own result only: a flag the parser answers itself inside a group (`-qh`)
        // comes back as its help command, whose text would name the leaf alone.
        if let leaf = leafCommand(arguments), let command = try? leaf.parseAsRoot(Array(arguments.dropFirst())),
            type(of: command) == leaf
        {
            return command
        }
        return try Sentinel.parseAsRoot(arguments)
    }

    /// Subcommands of the root without subcommands or options of their own parents, by name.
    static let leafCommands: [String: any ParsableCommand.Type] = ["scan": ScanCommand.self, "heal": HealCommand.self]

    /// The leaf `arguments` run, unless one of them is something the parser answers itself.
    static func leafCommand(_ arguments: [String]) -> (any ParsableCommand.Type)? {
        guard let name = arguments.first, let leaf = leafCommands[name] else { return nil }
        let answeredByParser = arguments.dropFirst().contains { argument in
            argument == "help" || argument == "-h" || argument.hasPrefix("--h") || argument.hasPrefix("--version")
                || argument.hasPrefix("--generate-completion") || argument.hasPrefix("--experimental")
        }
        return answeredByParser ? nil : leaf
    }

    /// `scan --prove` alone takes no value (the configuration's `prove.run` is started); with a
    /// URL (the next argument holds `://`) it proves against that. The parser knows no option
    /// whose value may be left out, so the bare one is given `ScanCommand.startsApplication`.
    static func bareProveSpelled(_ arguments: [String]) -> [String] {
        guard arguments.first == "scan" else { return arguments }
        var spelled = arguments
        for index in spelled.indices.dropFirst() where spelled[index] == "--prove" {
            if index + 1 < spelled.count {
                let next = spelled[index + 1]
                if next.contains("://") { continue }
                // `localhost:5000` is a URL without its scheme, not a path: its value, refused as such.
                if !next.hasPrefix("-"), next.contains(":"), !FileManager.default.fileExists(atPath: next) { continue }
            }
            spelled[index] = "--prove=" + ScanCommand.startsApplication
        }
        return spelled
    }

    /// Prints what `error` says (one line for a `SentinelError`) and returns its exit status.
    private static func report(_ error: any Error) -> Int32 {
        if let error = error as? SentinelError {
            Console.error("sentinel: \(error.message)")
            return error.exitStatus
        }
        if let exit = error as? ExitCode { return exit.rawValue }
        // ArgumentParser's own outcomes: help and version to stdout, usage errors (status 2).
        let code = Sentinel.exitCode(for: error)
        if code == .success {
            Console.out(Sentinel.fullMessage(for: error))
            return 0
        }
        // The usage text is several lines of the parser's own; each is printed as one.
        for line in Sentinel.fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false) {
            Console.error(String(line))
        }
        return code == .validationFailure ? 2 : code.rawValue
    }
}
