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
        // The two usual mistakes, in Sentinel's words rather than git's `fatal:` lines.
        let inside = try git(["rev-parse", "--is-inside-work-tree"], in: directory)
        guard inside.status == 0, String(decoding: inside.stdout, as: UTF8.self).hasPrefix("true") else {
            if inside.status != 0, !inside.stderr.contains("not a git repository") {
                let reason = firstLine(inside.stderr)
                throw SentinelError(.invalidInput, "\(revision): git cannot read the repository at \(directory): \(reason)")
            }
            throw SentinelError(.invalidInput, "\(revision): \(directory) is not in a git work tree (--since compares with a git revision)")
        }
        let known = try git(["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: directory)
        guard known.status == 0 else {
            throw SentinelError(.invalidInput, "\(revision): no such commit in the git repository at \(directory)")
        }
        // `--text`: a `.gitattributes` the change itself adds (`*.py -diff`, `binary`) would make
        // git print "Binary files differ" with no lines, and every finding in those files vanish.
        let output = try git(
            [
                "diff", "--text", "--unified=0", "--no-color", "--no-ext-diff", "--no-textconv", "--ignore-submodules=all",
                "--src-prefix=a/",
                "--dst-prefix=b/", "--relative", revision,
                "--",
            ],
            in: directory)
        guard output.status == 0 else {
            throw SentinelError(.invalidInput, "\(revision): git diff failed: \(firstLine(output.stderr))")
        }
        let data = output.stdout
        return ChangedLines(unifiedDiff: String(decoding: data, as: UTF8.self))
    }

    /// The bytes of `name` (a path relative to `directory`) in `revision`'s tree, nil when that
    /// tree has no entry there. As in a work tree, only a regular file is read: a link, a
    /// directory or a submodule at the name is refused, and so is a file over `limit` bytes
    /// (before git prints it). `revision` is one `changedLines` accepted.
    public static func file(_ name: String, in directory: String, at revision: String, limit: Int) throws -> Data? {
        let listing = try git(["ls-tree", "-l", "-z", revision, "--", name], in: directory)
        guard listing.status == 0 else {
            throw SentinelError(.invalidInput, "\(revision): git ls-tree failed: \(firstLine(listing.stderr))")
        }
        // `MODE TYPE OBJECT SIZE\tNAME\0`; nothing when the tree has no such entry.
        guard let entry = listing.stdout.split(separator: 0).first, let tab = entry.firstIndex(of: 0x09) else { return nil }
        let fields = String(decoding: entry[..<tab], as: UTF8.self).split(separator: " ", omittingEmptySubsequences: true)
        guard fields.count == 4 else { throw SentinelError(.invalidInput, "\(revision):\(name): git ls-tree printed no entry") }
        guard fields[0] == "100644" || fields[0] == "100755", fields[1] == "blob" else {
            throw SentinelError(.invalidInput, "\(revision):\(name): not a regular file (git mode \(fields[0]))")
        }
        guard let size = Int(fields[3]), size <= limit else {
            throw SentinelError(.invalidInput, "\(revision):\(name): \(fields[3]) bytes, more than the \(limit) allowed")
        }
        let blob = try git(["cat-file", "blob", String(fields[2])], in: directory)
        guard blob.status == 0, blob.stdout.count == size else {
            throw SentinelError(.invalidInput, "\(revision):\(name): git cat-file failed: \(firstLine(blob.stderr))")
        }
        return blob.stdout
    }

    /// Through the one git runner: the repository's own configuration runs nothing.
    private static func git(_ arguments: [String], in directory: String) throws -> GitRunner.Output {
        do {
            return try GitRunner.run(arguments, in: directory)
        } catch let error as SentinelError {
            throw SentinelError(.invalidInput, "cannot run git: \(error.message)")
        }
    }

    /// git's first message line without its `fatal: ` / `error: ` prefix.
    private static func firstLine(_ text: String) -> String {
        var line = text.split(separator: "\n").first.map(String.init) ?? "no message"
        for prefix in ["fatal: ", "error: "] where line.hasPrefix(prefix) { line.removeFirst(prefix.count) }
        return line
    }
}
