import Findings
import Foundation
import Support

/// The lines changed between a revision and the working tree, from git (`scan --since REV`).
public enum GitDiff {
    /// Errors are `REV: git's message`, or a problem without the revision; the caller adds the
    /// flag or key the revision came from.
    public static func changedLines(in directory: String, since revision: String) throws -> ChangedLines {
        guard !revision.hasPrefix("-") else {
            throw SentinelError(.invalidInput, "'\(revision)' is not a revision")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = [
            "-C", directory, "diff", "--unified=0", "--no-color", "--no-ext-diff", "--relative",
            revision, "--",
        ]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw SentinelError(.invalidInput, "cannot run git: \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let first = message.split(separator: "\n").first.map(String.init) ?? "git diff failed"
            throw SentinelError(.invalidInput, "\(revision): \(first)")
        }
        return ChangedLines(unifiedDiff: String(decoding: data, as: UTF8.self))
    }
}
