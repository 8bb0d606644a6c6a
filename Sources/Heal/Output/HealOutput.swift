import Foundation
import Support

/// Writes `--out DIR` all at once through the CLI's one output primitive
/// (`PreparedOutputDirectory`): `patch.diff` (when there is a candidate) and `evidence.json` go
/// to a new sibling directory that is then renamed into place, so DIR is never half-written and
/// a link planted at DIR is refused, never followed. An existing DIR is replaced only when it
/// holds nothing but a previous heal's files; anything else is refused (exit 2) rather than deleted.
public enum HealOutput {
    /// The files `heal` writes.
    public static let files: Set<String> = ["patch.diff", "evidence.json"]

    /// Resolves `path` before the heal runs, refusing links planted inside `trees` (the
    /// repository); throws `.invalidInput` when it cannot receive the output.
    public static func prepare(_ path: String, refusingLinksInside trees: [String] = []) throws -> PreparedOutputDirectory {
        try PreparedOutputDirectory(path: path, existing: .replaceIfOnly(files), refusingLinksInside: trees)
    }

    /// `evidence` as written: its JSON through `redactor` (a signal's text may quote a secret).
    /// Hash this, not `evidence.json()`: what is recorded is what was written.
    public static func evidenceJSON(_ evidence: Evidence, redactor: Redactor = Redactor()) throws -> Data {
        redactor.redact(try evidence.json())
    }

    /// Whether `patch` can be written: redacting it would break it, so a patch holding a value
    /// `redactor` knows is withheld (`evidence.json` says so through the caller's warning).
    public static func canWrite(patch: String, redactor: Redactor) -> Bool { !redactor.finds(in: patch) }

    /// Writes `evidence` (redacted) and `patch` when not nil and free of secrets to the prepared
    /// directory; returns false when the patch was withheld.
    @discardableResult
    public static func write(
        to output: PreparedOutputDirectory, patch: String?, evidence: Evidence, redactor: Redactor = Redactor()
    ) throws -> Bool {
        let (files, written) = try contents(patch: patch, evidence: evidence, redactor: redactor)
        try output.write(files)
        return written
    }

    /// The files `write` writes, in order, and whether the patch is among them (false: withheld).
    public static func contents(patch: String?, evidence: Evidence, redactor: Redactor = Redactor()) throws -> (
        files: [(name: String, data: Data)], patchWritten: Bool
    ) {
        var files: [(name: String, data: Data)] = []
        let withheld = patch.map { !canWrite(patch: $0, redactor: redactor) } ?? false
        if let patch, !withheld { files.append(("patch.diff", Data(patch.utf8))) }
        files.append(("evidence.json", try evidenceJSON(evidence, redactor: redactor) + Data("\n".utf8)))
        return (files, !withheld)
    }

    /// Prepares `directory` and writes to it.
    @discardableResult
    public static func write(to directory: String, patch: String?, evidence: Evidence, redactor: Redactor = Redactor()) throws
        -> Bool
    {
        try write(to: prepare(directory), patch: patch, evidence: evidence, redactor: redactor)
    }
}
