/// One entry of a policy's `rules`: an effect for some action classes on some paths.
public struct PolicyRule: Sendable, Hashable, Codable {
    /// The rule's name in verdicts and the audit log; `rules[N]` (0-based) when the file gives none.
    public var id: String
    /// What the rule says about the paths it covers.
    public var effect: RuleEffect
    /// The action classes the rule covers; nil for every class (`"*"`).
    public var classes: Set<ActionClass>?
    /// The paths the rule covers; `**` when the file gives none.
    public var paths: [PathGlob]
    /// The line of the rule in the policy file (0 for rules made in code).
    public var line: Int

    /// A rule named `id` with `effect` for `classes` (nil: all) on `paths`.
    public init(id: String, effect: RuleEffect, classes: Set<ActionClass>?, paths: [PathGlob], line: Int = 0) {
        self.id = id
        self.effect = effect
        self.classes = classes
        self.paths = paths
        self.line = line
    }

    /// Whether the rule speaks about `action` on `path`.
    public func covers(_ action: ActionClass, path: String) -> Bool {
        (classes?.contains(action) ?? true) && paths.contains { $0.matches(path) }
    }
}
