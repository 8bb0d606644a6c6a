import Foundation
import Store
import Support

/// A proposal as read from its directory, each file once: what approval commits and publishes
/// comes from these values only, never from a second read.
public struct ProposalFiles: Sendable {
    /// `proposal.json`.
    public var document: ProposalDocument
    /// `patch.diff`.
    public var patch: String
    /// `PR.md`, the pull request's body.
    public var body: String
    /// The digest of the three files' bytes.
    public var digest: ProposalDigest
}

/// Writes and reads proposal directories under `proposals/<id>/` of the state directory: `patch.diff`,
/// `PR.md` and `proposal.json`, written to a temporary directory beside it and renamed into
/// place, so a proposal is either complete or absent.
public enum ProposalWriter {
    /// The directory holding every proposal.
    public static func root(_ state: StateDirectory) -> String { state.file("proposals") }

    /// Each file is at most this large.
    static let limit = 64 << 20

    /// Writes `document` with `patch` and `body`; returns the directory and the digest of what
    /// was written (to be recorded outside the directory). An existing directory of the same id
    /// (the same change proposed again) is kept as it is. Written through the CLI's one output
    /// primitive: made beside the final name and renamed into place without following anything
    /// planted there. `PR.md` and `proposal.json` (the pull request's body, title and commit
    /// message) go through `redactor`; the patch cannot (it would no longer apply, nor match its
    /// hash), so a patch holding a secret is refused (`.invalidInput`).
    @discardableResult
    public static func write(
        _ document: ProposalDocument, patch: String, body: String, state: StateDirectory, redactor: Redactor
    ) throws -> (directory: String, digest: ProposalDigest) {
        guard !redactor.finds(in: patch) else {
            throw SentinelError(.invalidInput, "proposal \(document.id): the patch contains the value of a credential; not written")
        }
        let root = root(state)
        try PrivateDirectory.create(root)
        let final = root + "/" + document.id
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let contents = [
            "patch.diff": Data(patch.utf8), "PR.md": Data(redactor.redact(body).utf8),
            "proposal.json": redactor.redact(try encoder.encode(document) + Data("\n".utf8)),
        ]
        try PreparedOutputDirectory(path: final, existing: .keep).write(
            ProposalDigest.files.map { ($0, contents[$0] ?? Data()) }, mode: 0o700, fileMode: 0o600)
        return (final, ProposalDigest(contents: contents))
    }

    /// The proposal in `directory`. Each file is read once, without following a link at its
    /// name; with `expected`, a file whose SHA-256 differs from the recorded one is refused
    /// (`.invalidInput`, naming it) before anything in it is parsed.
    public static func read(_ directory: String, expected: ProposalDigest? = nil) throws -> ProposalFiles {
        var contents: [String: Data] = [:]
        for name in ProposalDigest.files {
            contents[name] = try BoundedFile.read(directory + "/" + name, limit: limit, followLinks: false)
        }
        let digest = ProposalDigest(contents: contents)
        if let expected, let changed = digest.firstChange(from: expected) {
            throw SentinelError(
                .invalidInput,
                "\(directory)/\(changed): changed since it was proposed (its SHA-256 is not the one the approval queue "
                    + "and the audit log recorded); not approved")
        }
        let document: ProposalDocument
        do {
            document = try JSONDecoder().decode(ProposalDocument.self, from: contents["proposal.json"] ?? Data())
        } catch {
            throw SentinelError(.invalidInput, "\(directory)/proposal.json: not a proposal (\(error))")
        }
        return ProposalFiles(
            document: document, patch: String(decoding: contents["patch.diff"] ?? Data(), as: UTF8.self),
            body: String(decoding: contents["PR.md"] ?? Data(), as: UTF8.self), digest: digest)
    }
}
