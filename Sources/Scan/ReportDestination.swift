import Foundation
import Support

/// Where a report will be written (`scan --output FILE`): checked before the scan runs, so that
/// a typo in the directory costs a one-line error (exit 2), not a finished scan whose report
/// cannot be written.
public enum ReportDestination {
    /// Throws `PATH: problem` when `path` cannot receive a report.
    public static func check(_ path: String) throws {
        let parent = (path as NSString).deletingLastPathComponent
        let directory = parent.isEmpty ? "." : parent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw SentinelError(.invalidInput, "\(path): directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else {
            throw SentinelError(.invalidInput, "\(path): \(directory) is not a directory")
        }
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw SentinelError(.invalidInput, "\(path): is a directory")
        }
    }
}
