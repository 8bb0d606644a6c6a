import SAST

extension RuleSet {
    /// The CWE ids the shipped rules (`RuleLocations.standard()`) give `ruleId`; empty when the
    /// rule is not one of them or the rules cannot be read (a risk input, never a failure).
    public static func shippedCWEs(of ruleId: String?) -> [Int] {
        guard let ruleId, let rules = try? RuleSet.load(directories: RuleLocations.standard()) else { return [] }
        return rules.rules.first { $0.id == ruleId }?.cwe ?? []
    }
}
