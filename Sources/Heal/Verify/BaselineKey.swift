import Digest
import Foundation
import Sandbox

/// What decides the verify command's result on an unchanged tree, as one SHA-256: the tree's
/// content (``HealWorkspace/digest``), the command, its environment, the sandbox profile it runs
/// under, the package index and the pinned version installed first, and whether its TAP report is
/// read. Two heals with the same key would run the same command on the same bytes in the same
/// sandbox (``HealMemory/baseline(_:now:)``).
public struct BaselineKey: Sendable, Hashable {
    /// The key, 64 lowercase hex digits.
    public let digest: String

    private struct Parts: Encodable {
        let format = 1
        let tree: String
        let command: String
        let environment: [String: String]
        let profile: Profile
        let packageIndex: PackageIndex?
        let install: PackagePin?
        let readsTAP: Bool
    }

    /// The key of `verifier`'s run on a snapshot whose digest is `tree`, with `install` first.
    public init(tree: String, verifier: Verifier, install: PackagePin?) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let parts = Parts(
            tree: tree, command: verifier.command, environment: verifier.environment, profile: verifier.profile,
            packageIndex: verifier.packageIndex, install: install, readsTAP: verifier.readsTAP)
        digest = SHA256.hex([UInt8](try encoder.encode(parts)))
    }
}
