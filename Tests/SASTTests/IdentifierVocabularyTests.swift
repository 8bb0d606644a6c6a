import Testing

@testable import SAST

/// The numbered identifier checks decide exactly as the set checks they replace.
@Suite struct IdentifierVocabularyTests {
    @Test func numberedChecksAgreeWithSetChecks() {
        let words = ["os", "system", "subprocess", "run", "yaml", "load", "pickle", "loads", "md5", "hashlib", "request"]
        var generator = SystemRandomNumberGenerator()
        func randomSet(_ count: Int, from pool: [String]) -> Set<String> {
            Set((0..<count).map { _ in pool.randomElement(using: &generator)! })
        }
        let requirements = (0..<60).map { i -> IdentifierRequirement in
            i % 10 == 0
                ? .always : IdentifierRequirement(alternatives: (0..<(1 + i % 3)).map { _ in randomSet(1 + i % 3, from: words) })
        }
        let vocabulary = IdentifierVocabulary(requirements)
        let numbered = requirements.map(vocabulary.numbered)
        for _ in 0..<300 {
            // Files also hold names no rule mentions.
            let identifiers = randomSet(Int.random(in: 0...8), from: words + ["x", "self", "app", "name"])
            let presence = vocabulary.presence(in: identifiers)
            for (requirement, gate) in zip(requirements, numbered) {
                #expect(gate.isSatisfied(by: presence) == requirement.isSatisfied(by: identifiers))
            }
        }
    }

    @Test func aRuleWithoutRequirementAlwaysRuns() {
        let vocabulary = IdentifierVocabulary([.always])
        #expect(vocabulary.numbered(.always).isSatisfied(by: vocabulary.presence(in: [])))
    }

    @Test func moreThanOneWordOfBits() {
        let names = (0..<150).map { "name\($0)" }
        let requirement = IdentifierRequirement(alternatives: [["name3", "name149"], ["name70"]])
        let vocabulary = IdentifierVocabulary([IdentifierRequirement(alternatives: names.map { [$0] }), requirement])
        let gate = vocabulary.numbered(requirement)
        #expect(gate.isSatisfied(by: vocabulary.presence(in: ["name3", "name149"])))
        #expect(gate.isSatisfied(by: vocabulary.presence(in: ["name70", "other"])))
        #expect(!gate.isSatisfied(by: vocabulary.presence(in: ["name3", "name148"])))
    }
}
