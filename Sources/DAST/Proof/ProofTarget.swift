import Findings

/// One static finding to prove against the running application (`sentinel scan --prove`): the
/// route its source is read in, where in the request the source reads, and the checks of its
/// weakness. The worker sends those checks to that route and that parameter only.
public struct ProofTarget: Sendable, Codable, Hashable {
    /// The finding's number in the parent's list (the outcome carries it back).
    public var id: Int
    /// The method the route answers (`GET`, `POST`).
    public var method: String
    /// The route's path as the code writes it (`/notes/<int:id>`, `/users/:id`).
    public var route: String
    /// Where the payload goes (`query-or-form` and `form-or-json` are settled by the worker).
    public var part: RequestPart
    /// The request value's name (`q`).
    public var parameter: String
    /// The active checks to run, by rule id (`sqli`): those of the finding's weakness.
    public var checks: [String]
    /// The route's other values its handler reads, `part:name` (`form:password`): sent with the
    /// one tried, each with a plain value, so a handler that checks them first goes on.
    public var others: [String] = []

    /// A target; see the properties.
    public init(
        id: Int, method: String, route: String, part: RequestPart, parameter: String, checks: [String], others: [String] = []
    ) {
        self.id = id
        self.method = method
        self.route = route
        self.part = part
        self.parameter = parameter
        self.checks = checks
        self.others = others
    }

    /// The ids of the active checks that prove a weakness of `cwe` (a finding's list, most
    /// specific first): a check whose own CWE the finding names, else one whose list holds the
    /// finding's first CWE. Empty when no check can prove it.
    public static func checks(for cwe: [Int]) -> [String] {
        let active = WebRules.active.flatMap(\.rules).filter { $0.id != StoredXSSPass.rule.id }
        let exact = active.filter { rule in rule.cwe.first.map(cwe.contains) ?? false }
        if !exact.isEmpty { return exact.map(\.id) }
        guard let first = cwe.first else { return [] }
        return active.filter { $0.cwe.contains(first) }.map(\.id)
    }
}

/// What proving one ``ProofTarget`` showed.
public struct ProofOutcome: Sendable, Codable, Hashable {
    /// The target's ``ProofTarget/id``.
    public var id: Int
    /// The check's finding when it confirmed the weakness in-band (its evidence is the proof).
    public var finding: Finding?
    /// Out-of-band probes sent (SSRF, XXE): a canary hit on one proves it.
    public var probes: [OOBProbe] = []
    /// Why it is not proven, when it is not (and no probe is waiting).
    public var reason: String?
    /// Requests the proof sent.
    public var requests = 0

    /// An outcome for target `id`.
    public init(id: Int) {
        self.id = id
    }
}
