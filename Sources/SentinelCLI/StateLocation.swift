import Foundation
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
        if let notice = try LegacyStateMigration.migrate(legacy, to: state).notice(from: legacy) {
            Console.noticeOnce(notice)
        }
        return state
    }

    /// The state directory; throws when the environment does not say where it is.
    static func current() throws -> StateDirectory {
        try resolved.get()
    }
}
