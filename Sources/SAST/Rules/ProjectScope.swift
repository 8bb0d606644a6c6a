import Documents

/// Where in a project a rule applies, whatever its kind (Python or template; format in
/// `rules/README.md`): a weakness that only exists in a web application, or that one protection
/// turned on for the whole project removes (Django's CSRF middleware, a rate limiter).
public struct ProjectScope: Sendable, Hashable {
    /// `frameworks`: the rule applies only in a project whose Python code imports one of these
    /// top-level modules (`django`, `flask`); empty: any project.
    public var frameworks: [String] = []
    /// `project-not-regex`: the rule does not apply in a project where some Python file holds a
    /// match.
    public var notRegex: TemplateRegex?

    /// A scope that holds everywhere.
    public init() {}

    /// A scope from its parts.
    public init(frameworks: [String], notRegex: TemplateRegex?) {
        self.frameworks = frameworks
        self.notRegex = notRegex
    }

    /// Whether the rule applies in every project (nothing to check).
    public var isEverywhere: Bool { frameworks.isEmpty && notRegex == nil }

    /// The rule keys this scope reads.
    static let keys: Set<String> = ["frameworks", "project-not-regex"]

    /// Reads `frameworks` and `project-not-regex` of `map`; throws naming the file and the line.
    init(_ map: Mapping, _ c: Cursor) throws {
        frameworks = try map["frameworks"].map { try c.strings($0, "frameworks") } ?? []
        notRegex = try map["project-not-regex"].map {
            try TemplateRuleLoader.compile(try c.string($0, "project-not-regex"), $0, c)
        }
    }
}

/// What a scan knows of the project's Python code for ``ProjectScope``s: the modules it imports,
/// and the rules a project-wide protection rules out.
///
/// The imports come from the project's import pre-scan; a `project-not-regex` is searched
/// only for the rules that report something (``rulingOut(_:in:)``): most scans have no finding of
/// such a rule, and the search over every file cost a sixth of a large project's scan.
public struct ProjectFacts: Sendable {
    /// The top-level modules the Python code imports (`flask`, `django`).
    public var modules: Set<String> = []
    /// Ids of rules whose `project-not-regex` matched some Python file.
    public var ruledOut: Set<String> = []

    /// A project of which nothing is known yet.
    public init() {}

    /// Rules out each of `scoped` whose `project-not-regex` matches `text`.
    public mutating func ruleOut(_ scoped: [ScopedRule], text: String) {
        for rule in scoped where !ruledOut.contains(rule.id) {
            if let regex = rule.scope.notRegex, regex.occurs(in: text) { ruledOut.insert(rule.id) }
        }
    }

    /// Of the `scoped` rules, those whose `project-not-regex` still has to be searched before
    /// `reported` (the rule ids with findings) can be shown: they apply by their frameworks,
    /// and nothing ruled them out yet.
    public func rulingOut(_ scoped: [ScopedRule], in reported: Set<String>) -> [ScopedRule] {
        scoped.filter { rule in
            rule.scope.notRegex != nil && reported.contains(rule.id) && !ruledOut.contains(rule.id)
                && applies(rule.id, rule.scope)
        }
    }

    /// Adds what `other` noted (another file's facts).
    public mutating func merge(_ other: ProjectFacts) {
        modules.formUnion(other.modules)
        ruledOut.formUnion(other.ruledOut)
    }

    /// Whether the rule `id` with `scope` applies: the project uses one of its frameworks, and
    /// nothing rules it out.
    public func applies(_ id: String, _ scope: ProjectScope) -> Bool {
        (scope.frameworks.isEmpty || scope.frameworks.contains(where: modules.contains)) && !ruledOut.contains(id)
    }
}

/// A rule's id with its scope: what ``ProjectFacts`` checks, for a rule of either kind.
public struct ScopedRule: Sendable, Hashable {
    /// The rule's id.
    public var id: String
    /// Where it applies.
    public var scope: ProjectScope

    /// A rule id and its scope.
    public init(id: String, scope: ProjectScope) {
        self.id = id
        self.scope = scope
    }
}
