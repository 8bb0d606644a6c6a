import Git

/// Fixes memory verified before, as proposals to try before any actor: the same signal (or a
/// similar one) healed once in this repository is healed again by the patch that worked, when it
/// still applies. Only plain patches (repairs, rule fixes, a model's edits), not dependency bumps,
/// and only within ``ReplayScope``: what a remembered patch may touch is decided by the signal
/// at hand, never by the record.
enum MemoryReplay {
    /// At most this many remembered fixes are replayed.
    static let limit = 3

    /// The verified records' patches applied to the snapshot (exact signal first, as `records`
    /// is ordered); records whose patch no longer applies are skipped, and those `scope` refuses
    /// are not applied: each is one note in `refusals`.
    static func proposals(_ records: [MemoryRecord], workspace: HealWorkspace, scope: ReplayScope) -> (
        proposals: [Proposal], refusals: [String]
    ) {
        var proposals: [Proposal] = []
        var refusals: [String] = []
        var seen = Set<String>()
        for record in records where record.verified && seen.insert(record.patchHash).inserted {
            guard proposals.count < limit else { break }
            // A bump is more than its diff (the version installed and imported): its own actor
            // plans it again, and memory ranks the remembered strategy first there.
            guard let actor = ActorKind(rawValue: record.actor), actor != .dependencyBump else { continue }
            if let why = scope.refusal(of: record.patch) {
                refusals.append("memory: remembered fix #\(record.id) not replayed: \(why)")
                continue
            }
            var files: [String: String] = [:]
            for path in GitPatch.paths(in: record.patch) {
                if let text = workspace.read(path) { files[path] = text }
            }
            guard !files.isEmpty, let changes = try? GitPatch.apply(record.patch, to: files), !changes.isEmpty else { continue }
            // What git applied, checked again: the text check must not be all that stands here.
            if let why = scope.refusal(of: changes) {
                refusals.append("memory: remembered fix #\(record.id) not replayed: \(why)")
                continue
            }
            proposals.append(
                Proposal(
                    actor: actor, changes: changes,
                    description: "remembered fix #\(record.id): \(record.description)", strategy: record.strategy))
        }
        return (proposals, refusals)
    }
}
