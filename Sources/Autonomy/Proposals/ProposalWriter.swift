import Foundation
import Store
import Support

/// Writes and reads proposal directories under `$SENTINEL_HOME/proposals/<id>/`: `patch.diff`,
/// `PR.md` and `proposal.json`, written to a temporary directory beside it and renamed into
/// place, so a proposal is either complete or absent.
public enum ProposalWriter {
    /// The directory holding every proposal.
    public static func root(_ state: StateDirectory) -> String { state.file("proposals") }

    /// Writes `document` with `patch` and `body`; returns the directory. An existing directory
    /// of the same id (the same change proposed again) is kept as it is. Written through the
    /// CLI's one output primitive: made beside the final name and renamed into place without
    /// following anything planted there. `PR.md` and `proposal.json` (the pull request's body,
    /// title and commit message) go through `redactor`; the patch cannot (it would no longer
    /// apply, nor match its hash), so a patch holding a secret is refused (`.invalidInput`).
    @discardableResult
    public static func write(
        _ document: ProposalDocument, patch: String, body: String, state: StateDirectory, redactor: Redactor
    ) throws -> String {
        guard !redactor.finds(in: patch) else {
            throw SentinelError(.invalidInput, "proposal \(document.id): the patch contains the value of a credential; not written")
        }
        let root = root(state)
        try PrivateDirectory.create(root)
        let final = root + "/" + document.id
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let json = redactor.redact(try encoder.encode(document) + Data("\n".utf8))
        try PreparedOutputDirectory(path: final, existing: .keep).write(
            [("patch.diff", Data(patch.utf8)), ("PR.md", Data(redactor.redact(body).utf8)), ("proposal.json", json)],
            mode: 0o700, fileMode: 0o600)
        return final
    }

    /// The proposal in `directory`: its document and its patch.
    public static func read(_ directory: String) throws -> (document: ProposalDocument, patch: String) {
        let json = try BoundedFile.read(directory + "/proposal.json", limit: 64 << 20, followLinks: false)
        let patch = try BoundedFile.read(directory + "/patch.diff", limit: 64 << 20, followLinks: false)
        do {
            return (try JSONDecoder().decode(ProposalDocument.self, from: json), String(decoding: patch, as: UTF8.self))
        } catch {
            throw SentinelError(.invalidInput, "\(directory)/proposal.json: not a proposal (\(error))")
        }
    }
}
