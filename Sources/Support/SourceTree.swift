import Foundation

/// Data shipped beside the sources (profiles/, rules/): found by walking up from the running
/// executable, so a binary built in a checkout (`.build/debug/sentinel`) uses that checkout's.
public enum SourceTree {
    /// The nearest ancestor directory of the executable holding `name/marker`, as `…/name`.
    public static func directory(named name: String, containing marker: String) -> String? {
        guard var directory = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent() else {
            return nil
        }
        for _ in 0..<6 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(marker).path) {
                return candidate.path
            }
            directory.deleteLastPathComponent()
        }
        return nil
    }
}
