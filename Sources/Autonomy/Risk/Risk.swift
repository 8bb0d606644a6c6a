/// How risky it is to apply a verified change without a human, as a value in [0, 1] rounded to
/// two decimals, and its level (`RiskLevel`: low below 0.34, medium below 0.67, high).
///
/// The value is a sum of independent terms, each kept in `inputs` under its name so that a
/// reviewer sees where a score came from:
///
/// | term        | adds                                                                 | most |
/// |-------------|----------------------------------------------------------------------|------|
/// | `action`    | dependency-bump 0.05, rule-fix 0.10, logic-repair 0.20, llm-patch 0.30 | 0.30 |
/// | `size`      | 0.01 per changed line beyond 2 (a one-line bump changes 2)           | 0.20 |
/// | `files`     | 0.05 per distinct file beyond 1                                      | 0.15 |
/// | `coverage`  | 0.15 × the fraction of changed lines the tests did not run; 0.10 when unknown | 0.15 |
/// | `sensitive` | 0.10 per sensitive area touched (auth, crypto, network)              | 0.20 |
/// | `memory`    | 0.10 × (1 − the actor's success rate); 0.05 without history          | 0.10 |
///
/// The sum (at most 1.10) is clamped to [0, 1]. The action's base orders the actors by how much
/// of the change they invent; size and spread stand for what a reviewer has to read; coverage
/// for whether the verification actually exercised the change; sensitive areas for what a
/// mistake costs; memory for how this actor has fared here before. Changed lines the coverage
/// tool could not count (`changedLinesTotal` 0, e.g. only a requirements file) leave nothing
/// uncovered. So a one-line dependency bump, covered, with good history scores about 0.05–0.10
/// (low); a 40-line model patch in crypto code without coverage scores about 0.75 (high).
public struct Risk: Sendable, Hashable, Codable {
    /// The risk in [0, 1], two decimals.
    public var value: Double
    /// `RiskLevel(value:)`.
    public var level: RiskLevel
    /// Each term of the sum by name (`action`, `size`, `files`, `coverage`, `sensitive`, `memory`).
    public var inputs: [String: Double]

    /// A risk with every field given.
    public init(value: Double, level: RiskLevel, inputs: [String: Double]) {
        self.value = value
        self.level = level
        self.inputs = inputs
    }

    /// The base of each action class.
    public static let actionBase: [ActionClass: Double] = [
        .dependencyBump: 0.05, .ruleFix: 0.10, .logicRepair: 0.20, .llmPatch: 0.30,
    ]

    /// Scores `inputs` as the table above says.
    public static func score(_ inputs: RiskInputs) -> Risk {
        let terms: [String: Double] = [
            "action": actionBase[inputs.action] ?? 0.30,
            "size": min(0.20, 0.01 * Double(max(0, inputs.changedLines - 2))),
            "files": min(0.15, 0.05 * Double(max(0, Set(inputs.files).count - 1))),
            "coverage": coverage(covered: inputs.changedLinesCovered, total: inputs.changedLinesTotal),
            "sensitive": min(0.20, 0.10 * Double(Set(inputs.sensitiveAreas).count)),
            "memory": memory(inputs.actorSuccessRate),
        ]
        let value = rounded(min(1, max(0, terms.values.reduce(0, +))), scale: 100)
        return Risk(value: value, level: RiskLevel(value: value), inputs: terms.mapValues { rounded($0, scale: 10_000) })
    }

    private static func coverage(covered: Int?, total: Int?) -> Double {
        guard let covered, let total, total >= 0 else { return 0.10 }
        guard total > 0 else { return 0 }
        let uncovered = 1 - Double(min(max(covered, 0), total)) / Double(total)
        return 0.15 * uncovered
    }

    private static func memory(_ rate: Double?) -> Double {
        guard let rate, rate.isFinite else { return 0.05 }
        return 0.10 * (1 - min(1, max(0, rate)))
    }

    /// Rounds to `1 / scale`, so that 0.05 + 0.29 reads 0.34 and not 0.33999….
    private static func rounded(_ value: Double, scale: Double) -> Double {
        (value * scale).rounded() / scale
    }
}
