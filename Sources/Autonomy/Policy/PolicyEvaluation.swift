import Support

extension Policy {
    /// Judges a candidate of class `action` changing `paths` (repository-relative), whose
    /// dependency belongs to `ecosystem` (an OSV name such as `PyPI`; nil when none).
    ///
    /// Per path: a protected glob (built-in, the file's, or another ecosystem's lockfile)
    /// denies; otherwise the strongest effect of the rules covering `action` on the path
    /// decides, and a path no rule covers counts as `ask`. The verdict is the strongest over all
    /// paths. Only sets and maxima are involved, so reordering the rules never changes a verdict.
    /// A path that leaves the repository (`..`) is denied; no paths at all is `ask`.
    public func evaluate(_ action: ActionClass, paths: [String], ecosystem: String?) -> PolicyVerdict {
        let guarded = protected + Self.protectedLockfiles(for: ecosystem)
        let decisions = paths.map { decide(action, path: $0, protected: guarded) }
        guard let strongest = decisions.map(\.effect).max() else {
            return PolicyVerdict(effect: .ask, rule: "no paths", reasons: ["the change names no paths: it needs approval"])
        }
        let rule: String
        if strongest == .allow {
            // Every rule that let a path through is part of the decision.
            rule = Set(decisions.flatMap(\.deciders)).sorted().joined(separator: ", ")
        } else {
            rule = decisions.first { $0.effect == strongest }.map { $0.deciders.joined(separator: ", ") } ?? ""
        }
        return PolicyVerdict(
            effect: strongest, rule: rule, reasons: decisions.map(\.reason),
            protectedPaths: decisions.filter { $0.kind == .protected }.map(\.path),
            uncoveredPaths: decisions.filter { $0.kind == .uncovered }.map(\.path))
    }

    /// The decision on one path.
    private struct PathDecision {
        enum Kind { case invalid, protected, uncovered, ruled }
        var path: String
        var kind: Kind
        var effect: RuleEffect
        /// Sorted, so the verdict does not depend on the order of rules.
        var deciders: [String]
        var reason: String
    }

    private func decide(_ action: ActionClass, path: String, protected guarded: [PathGlob]) -> PathDecision {
        let segments = Glob.policySegments(of: path)
        if segments.isEmpty || segments.contains("..") {
            return PathDecision(
                path: path, kind: .invalid, effect: .deny, deciders: ["invalid path: \(path)"],
                reason: "\(path) is denied: not a path inside the repository")
        }
        if let glob = guarded.first(where: { $0.matches(path) }) {
            return PathDecision(
                path: path, kind: .protected, effect: .deny, deciders: ["protected: \(glob.pattern)"],
                reason: "\(path) is denied: protected by '\(glob.pattern)', never changed automatically")
        }
        let covering = rules.filter { $0.covers(action, path: path) }
        guard let effect = covering.map(\.effect).max() else {
            return PathDecision(
                path: path, kind: .uncovered, effect: .ask, deciders: ["uncovered: \(path)"],
                reason: "\(path) needs approval: no rule covers \(action.rawValue) on it")
        }
        let winners = covering.filter { $0.effect == effect }.sorted { $0.id < $1.id }
        let named = winners.map { "'\($0.id)' (line \($0.line))" }.joined(separator: ", ")
        let verb =
            switch effect {
            case .allow: "is allowed by"
            case .ask: "needs approval by"
            case .deny: "is denied by"
            }
        return PathDecision(
            path: path, kind: .ruled, effect: effect, deciders: winners.map(\.id),
            reason: "\(path) \(verb) rule\(winners.count == 1 ? "" : "s") \(named)")
    }
}
