import Findings
import Foundation
import Git
import Support

/// The lines changed between a revision and the working tree, from git (`scan --since REV`).
public enum GitDiff {
    /// Errors are `REV: git's message`, or a problem without the revision; the caller adds the
    /// flag or key the revision came from.
    public static func changedLines(in directory: String, since revision: String) throws -> ChangedLines {
        guard !revision.hasPrefix("-") else {
            throw SentinelError(.invalidInput, "'\(revision)' is not a revision")
        }
        // Through the one git runner: the repository's own configuration runs nothing.
        let output: GitRunner.Output
        do {
            output = try GitRunner.run(
                ["diff", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv", "--relative", revision, "--"],
                in: directory)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "cannot run git: \(error.message)")
        }
        guard output.status == 0 else {
            let first = output.stderr.split(separator: "\n").first.map(String.init) ?? "git diff failed"
            throw SentinelError(.invalidInput, "\(revision): \(first)")
        }
        let data = output.stdout
        return ChangedLines(unifiedDiff: String(decoding: data, as: UTF8.self))
    }
}
