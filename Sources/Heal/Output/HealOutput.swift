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

    /// Writes `evidence` (and `patch` when not nil) to the prepared directory.
    public static func write(to output: PreparedOutputDirectory, patch: String?, evidence: Evidence) throws {
        var files: [(name: String, data: Data)] = []
        if let patch { files.append(("patch.diff", Data(patch.utf8))) }
        files.append(("evidence.json", try evidence.json() + Data("\n".utf8)))
        try output.write(files)
    }

    /// Prepares `directory` and writes to it.
    public static func write(to directory: String, patch: String?, evidence: Evidence) throws {
        try write(to: prepare(directory), patch: patch, evidence: evidence)
    }
}
