import Findings
import Foundation
import Support

/// `--since REV`: the lines changed between REV and the working tree, from git.
public enum GitDiff {
    public static func changedLines(in directory: String, since revision: String) throws -> ChangedLines {
        guard !revision.hasPrefix("-") else {
            throw SentinelError(.invalidInput, "--since: '\(revision)' is not a revision")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-C", directory, "diff", "--unified=0", "--no-color", "--no-ext-diff", "--relative",
                             revision, "--"]
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do {
            try process.run()
        } catch {
            throw SentinelError(.invalidInput, "--since: cannot run git: \(error)")
        }
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let first = message.split(separator: "\n").first.map(String.init) ?? "git diff failed"
            throw SentinelError(.invalidInput, "--since \(revision): \(first)")
        }
        return ChangedLines(unifiedDiff: String(decoding: data, as: UTF8.self))
    }
}
