import Foundation
import Store

/// The emergency brake: `SENTINEL_AUTONOMY=observer` in the environment, or a `STOP` file in the
/// repository's `.sentinel/` or in the state directory, forces every decision down to Observer.
/// `SENTINEL_AUTONOMY=proposer` caps decisions at Proposer; any other value is read as observer
/// (a brake that fails open would be no brake). Approvals by a person still work: the switch stops
/// Sentinel acting on its own.
public enum KillSwitch {
    /// The highest level allowed and why, or nil when the switch is off.
    public static func ceiling(environment: [String: String], repository: String?, state: StateDirectory)
        -> (level: AutonomyLevel, reason: String)?
    {
        var files = [state.file("STOP")]
        if let repository { files.insert(repository + "/.sentinel/STOP", at: 0) }
        for file in files {
            var info = stat()
            if lstat(file, &info) == 0 { return (.observer, "kill switch: \(file) exists") }
        }
        guard let value = environment["SENTINEL_AUTONOMY"], !value.isEmpty, value != AutonomyLevel.actor.rawValue else {
            return nil
        }
        if value == AutonomyLevel.proposer.rawValue { return (.proposer, "kill switch: SENTINEL_AUTONOMY=proposer") }
        return (.observer, "kill switch: SENTINEL_AUTONOMY=\(value)")
    }
}
