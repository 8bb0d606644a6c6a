import CLICore
import Foundation
import Git
import Store
import Support

/// The state directory of this run, resolved once: without `SENTINEL_HOME`, the first use also
/// moves the state an older Sentinel kept in `./.sentinel` (see `LegacyStateMigration`) and
/// says so in one line on stderr.
enum StateLocation {
    private static let resolved: Result<StateDirectory, any Error> = Result {
        let environment = ProcessInfo.processInfo.environment
        let state = try StateDirectory.resolve(environment: environment)
        guard environment["SENTINEL_HOME"].map(\.isEmpty) ?? true else { return state }
        let legacy = FileManager.default.currentDirectoryPath + "/.sentinel"
        if let notice = try LegacyStateMigration.migrate(legacy, to: state, cameWithTheTree: tracked).notice(from: legacy) {
            Console.noticeOnce(notice)
        }
        return state
    }

    /// Whether git tracks anything under `directory`: then it came with the repository, whatever
    /// its mode. Outside a work tree (or without git) nothing is tracked.
    private static func tracked(_ directory: String) -> Bool {
        guard let listing = try? GitRunner.run(["ls-files", "-z", "--", "."], in: directory) else { return false }
        return listing.status == 0 && !listing.stdout.isEmpty
    }

    /// The state directory; throws when the environment does not say where it is.
    static func current() throws -> StateDirectory {
        try resolved.get()
    }
}
