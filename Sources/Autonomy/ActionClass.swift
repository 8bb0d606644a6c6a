import Heal

/// What kind of change a candidate is, as policy rules name it. One class per heal actor, so
/// that a team can let dependency bumps through and keep a model's patches for review.
public enum ActionClass: String, Sendable, Hashable, Codable, CaseIterable {
    /// A vulnerable dependency raised to a fixed version.
    case dependencyBump = "dependency-bump"
    /// A SAST rule's fix template.
    case ruleFix = "rule-fix"
    /// Program repair without a model.
    case logicRepair = "logic-repair"
    /// A patch written by a language model.
    case llmPatch = "llm-patch"

    /// The class of a heal actor's candidates.
    public init(_ actor: ActorKind) {
        switch actor {
        case .dependencyBump: self = .dependencyBump
        case .ruleFix: self = .ruleFix
        case .logicRepair: self = .logicRepair
        case .llmPatch: self = .llmPatch
        }
    }
}
