import Findings

/// What a route rule checks over a project's handlers (``RouteHandler``).
public enum RouteCheck: String, Sendable, Hashable, CaseIterable {
    /// A handler without the authentication most of its siblings carry.
    case missingAuthentication = "missing-authentication"
    /// An authenticated handler that loads an object by a client-supplied key and never compares
    /// it with the current user, in a file whose other handlers do.
    case unownedObject = "unowned-object"
    /// A handler whose path or name says debug/admin/internal, without authentication, in a
    /// project whose handlers authenticate.
    case exposedEndpoint = "exposed-endpoint"
}

/// A rule over the request handlers of a project (`mode: route`, format in `rules/README.md`):
/// one ``RouteCheck`` with the patterns that say what authenticates, what is public, what owns.
public struct RouteRule: Sendable, Hashable {
    /// Unique id, `python.<name>`.
    public var id: String
    /// The finding message.
    public var message: String
    /// Severity of the findings.
    public var severity: Severity
    /// How likely a finding is real.
    public var confidence: Confidence
    /// CWE ids.
    public var cwe: [Int]
    /// `check`.
    public var check: RouteCheck
    /// `authentication`: what shows that a handler authenticates.
    public var authentication: AuthenticationEvidence
    /// `public`: handlers public by nature (login, index, health), by name or path.
    public var publicHandlers: TemplateRegex?
    /// `acts-on`: a missing-authentication finding needs the body to name something matching
    /// (the current user, the database): a handler that touches nothing private is left alone.
    public var actsOn: TemplateRegex?
    /// `ownership`: a comparison or condition matching it ties the object to the current user.
    public var ownership: TemplateRegex?
    /// `paths`: for exposed endpoints, the paths or names that say debug/admin/internal.
    public var paths: TemplateRegex?
    /// `min-siblings`: how many authenticating siblings (or project handlers) a finding needs.
    public var minSiblings: Int
    /// `metadata.references`.
    public var references: [String]
    /// The file the rule came from.
    public var file: String

    /// The SARIF metadata of this rule.
    public var descriptor: RuleDescriptor {
        .native(
            id: id, message: message, references: references, severity: severity, cwe: cwe, confidence: confidence,
            tags: ["route"])
    }
}

/// What shows that a handler authenticates: a guard (decorator, class guard, dependency) whose
/// name matches `guards`, a name its body uses matching `calls`, a condition matching
/// `conditions`, or a 401/403 refusal.
public struct AuthenticationEvidence: Sendable, Hashable {
    /// `guards`.
    public var guards: TemplateRegex
    /// `calls`.
    public var calls: TemplateRegex?
    /// `conditions`.
    public var conditions: TemplateRegex?

    /// Whether `handler` itself shows authentication (hooks aside).
    func shows(in handler: RouteHandler) -> Bool {
        handler.facts.denies || handler.guards.contains(where: guards.occurs)
            || calls.map { regex in handler.facts.names.contains(where: regex.occurs) } == true
            || conditions.map { regex in handler.facts.conditions.contains(where: regex.occurs) } == true
    }
}
