import Git

/// Fixes memory verified before, as proposals to try before any actor: the same signal (or a
/// similar one) healed once is healed again by the patch that worked, when it still applies.
/// Only plain patches (repairs, rule fixes, a model's edits), not dependency bumps.
enum MemoryReplay {
    /// At most this many remembered fixes are replayed.
    static let limit = 3

    /// The verified records' patches applied to the snapshot (exact signal first, as `records`
    /// is ordered); records whose patch no longer applies are skipped.
    static func proposals(_ records: [MemoryRecord], workspace: HealWorkspace) -> [Proposal] {
        var proposals: [Proposal] = []
        var seen = Set<String>()
        for record in records where record.verified && seen.insert(record.patchHash).inserted {
            guard proposals.count < limit else { break }
            // A bump is more than its diff (the version installed and imported): its own actor
            // plans it again, and memory ranks the remembered strategy first there.
            guard let actor = ActorKind(rawValue: record.actor), actor != .dependencyBump else { continue }
            let paths = GitPatch.paths(in: record.patch)
            guard !paths.isEmpty else { continue }
            var files: [String: String] = [:]
            for path in paths {
                if let text = workspace.read(path) { files[path] = text }
            }
            guard let changes = try? GitPatch.apply(record.patch, to: files), !changes.isEmpty else { continue }
            proposals.append(
                Proposal(
                    actor: actor, changes: changes,
                    description: "remembered fix #\(record.id): \(record.description)", strategy: record.strategy))
        }
        return proposals
    }
}
