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
            var command = try Sentinel.parseAsRoot(bareProveSpelled(arguments))
            try command.run()
            return 0
        } catch {
            return report(error)
        }
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
