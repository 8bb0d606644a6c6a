/// How far a verified candidate can be trusted, in [0, 1], from its evidence alone. Each input
/// and its weight is listed in `inputs`, so a reviewer (and the autonomy policy) can see why.
///
/// - start from the actor's kind: a dependency bump to an advisory's fixed version (0.60) or a
///   rule's fix template (0.60) are more certain than a repair template (0.45) or a model's
///   patch (0.35);
/// - + 0.15 when the verify command passed twice (always, for a verified candidate), and
///   + 0.10 more when it ran tests (pytest counts seen) and none was lost;
/// - + 0.10 when the signal's own failing tests now pass, or the re-scan is clean;
/// - − 0.02 per changed line beyond two (one line replaced), at most − 0.20: small patches are
///   easier to trust;
/// - + 0.10 × (memory success rate − 0.5) for the actor, from verified outcomes only (Laplace
///   smoothed, so an actor with no history counts as 0.5 and moves nothing).
///
/// - − 0.40 for a dependency bump whose verification did not run with the bumped version
///   installed and imported ("not exercised"): it then stays below 0.95, whatever else it has,
///   so the autonomy policy never applies it as verified.
///
/// So a one-line fix from an advisory or a rule template, verified twice by tests that ran, with
/// the signal gone, reaches 0.95 (the autonomy policy's default threshold for applying without a
/// human); a repair template or a model's patch does not, whatever its history.
public struct CandidateConfidence: Sendable, Hashable, Codable {
    /// The value, clamped to [0, 1] and rounded to two decimals.
    public var value: Double
    /// Each contribution by name.
    public var inputs: [String: Double]

    /// What a bump loses when its version was not installed in the run: enough that the
    /// largest possible sum (1.0) lands well below the 0.95 the policy asks of an actor.
    public static let notExercisedPenalty = -0.40

    /// The confidence of a candidate.
    public static func compute(
        actor: ActorKind, verifiedRuns: Int, ranTests: Bool, signalGone: Bool, changedLines: Int,
        memory: (verified: Int, total: Int), bumpExercised: Bool? = nil
    ) -> CandidateConfidence {
        var inputs: [String: Double] = [:]
        inputs["actor"] =
            switch actor {
            case .dependencyBump, .ruleFix: 0.60
            case .logicRepair: 0.45
            case .llmPatch: 0.35
            }
        inputs["verifiedTwice"] = verifiedRuns >= 2 ? 0.15 : 0
        inputs["testsRan"] = ranTests ? 0.10 : 0
        inputs["signalGone"] = signalGone ? 0.10 : 0
        inputs["patchSize"] = -min(0.20, 0.02 * Double(max(0, changedLines - 2)))
        let rate = (Double(memory.verified) + 1) / (Double(memory.total) + 2)
        inputs["memory"] = ((0.10 * (rate - 0.5)) * 1000).rounded() / 1000
        if bumpExercised == false { inputs["bumpNotExercised"] = notExercisedPenalty }
        let sum = inputs.values.reduce(0, +)
        return CandidateConfidence(value: (min(1, max(0, sum)) * 100).rounded() / 100, inputs: inputs)
    }
}
