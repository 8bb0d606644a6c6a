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
    /// of the same id (the same change proposed again) is kept as it is.
    @discardableResult
    public static func write(_ document: ProposalDocument, patch: String, body: String, state: StateDirectory) throws -> String {
        let root = root(state)
        try PrivateDirectory.create(root)
        let final = root + "/" + document.id
        if FileManager.default.fileExists(atPath: final) { return final }
        let temporary = root + "/.tmp-\(document.id)-\(UUID().uuidString.prefix(8))"
        try PrivateDirectory.create(temporary)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try Data(patch.utf8).write(to: URL(fileURLWithPath: temporary + "/patch.diff"))
            try Data(body.utf8).write(to: URL(fileURLWithPath: temporary + "/PR.md"))
            try (try encoder.encode(document) + Data("\n".utf8)).write(to: URL(fileURLWithPath: temporary + "/proposal.json"))
            guard rename(temporary, final) == 0 else {
                if errno == EEXIST || errno == ENOTEMPTY {
                    try? FileManager.default.removeItem(atPath: temporary)
                    return final
                }
                throw SentinelError(.io, "\(final): cannot rename the proposal into place: \(Errno.current)")
            }
        } catch {
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
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
