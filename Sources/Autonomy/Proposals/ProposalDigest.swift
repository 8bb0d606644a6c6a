import Digest
import Foundation
import Support

/// The SHA-256 of each file of a proposal directory that approval reads, in one canonical line
/// (`patch.diff:HEX PR.md:HEX proposal.json:HEX`). Recorded outside the directory when the
/// proposal is made (the queue row and the audit log's `proposal` entry) and compared before
/// anything is committed or published: whoever can edit the directory cannot edit these too,
/// unlike the patch hash inside `proposal.json`.
public struct ProposalDigest: Sendable, Hashable, CustomStringConvertible {
    /// The files, in the order the line lists them.
    public static let files = ["patch.diff", "PR.md", "proposal.json"]

    /// File name → SHA-256 (lowercase hex), one per name in `files`.
    public var hashes: [String: String]

    /// The digest of `contents` (file name → bytes, one per name in `files`).
    public init(contents: [String: Data]) {
        hashes = contents.mapValues { SHA256.hex(Array($0)) }
    }

    /// Parses what `description` prints; nil when it is not a digest of exactly `files`.
    public init?(parsing text: String) {
        var hashes: [String: String] = [:]
        for part in text.split(separator: " ") {
            let pair = part.split(separator: ":", maxSplits: 1)
            guard pair.count == 2, pair[1].count == 64, pair[1].allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else {
                return nil
            }
            hashes[String(pair[0])] = String(pair[1])
        }
        guard hashes.keys.sorted() == Self.files.sorted() else { return nil }
        self.hashes = hashes
    }

    /// `patch.diff:HEX PR.md:HEX proposal.json:HEX`.
    public var description: String {
        Self.files.map { "\($0):\(hashes[$0] ?? "")" }.joined(separator: " ")
    }

    /// The first file (in `files` order) whose hash differs from `recorded`'s, nil when none does.
    public func firstChange(from recorded: ProposalDigest) -> String? {
        Self.files.first { hashes[$0] != recorded.hashes[$0] }
    }
}
