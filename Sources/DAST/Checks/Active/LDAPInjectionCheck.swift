import Findings

/// LDAP injection: filter syntax in the value makes the directory fail (its error text), or an
/// injected filter that matches every entry and one that matches none answer differently, twice.
public struct LDAPInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "ldap-injection", name: "LDAP injection", severity: .high, cwe: [90],
        help: "Escape filter values per RFC 4515 (\\2a for *, \\28 \\29 for parentheses, \\5c, \\00) or use the library's filter builder.")
    static let errors = [
        "Bad search filter", "Invalid filter", "LDAPException", "javax.naming.directory", "ldap_search",
        "com.sun.jndi.ldap", "Protocol error occurred", "Invalid DN syntax", "LdapErr:", "filter error",
        "ldap.FILTER_ERROR", "InvalidFilterError",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Error-based, then boolean-based.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        // Any filter syntax error shows with a lone parenthesis; without a reaction there is none.
        // A value already proved to reach SQL or XPath is not also an LDAP filter.
        let proved = [SQLInjectionCheck.rule.ruleId, XPathInjectionCheck.rule.ruleId]
        guard !proved.contains(where: context.reported.contains), try context.reacts(point) else { return [] }
        if let hit = try ErrorProbe.first(point, context: context, suffixes: [")"], signatures: Self.errors) {
            return [
                Self.rule.finding(
                    at: point, message: "LDAP injection in '\(point.name)': filter syntax breaks the LDAP query",
                    evidence: hit.evidence, web: WebFacts(technique: .error))
            ]
        }
        // A parenthesis that changes nothing means no filter is being built from this value.
        guard try BooleanProbe.quoteMatters(point, context: context, quote: ")") else { return [] }
        // Pairs of the same length that differ in one character: syntax errors (even ones quoting
        // a position) and literal searches answer both alike; only an evaluated filter does not.
        let everything = ["*)(objectClass=*", "*)(|(objectClass=*)"]
        let nothing = ["*)(objectClass=0", "*)(|(objectClass=0)"]
        // The first pair must differ before the second is asked for.
        guard let compare = try ResponseComparison.calibrate(point, context: context, injected: everything + nothing),
            let (request, all) = try context.send(point, everything[0]), let (_, none) = try context.send(point, nothing[0]),
            compare.differs(all, none), let (_, all2) = try context.send(point, everything[1]), compare.same(all, all2),
            let (_, none2) = try context.send(point, nothing[1]), compare.same(none, none2)
        else { return [] }
        return [
            Self.rule.finding(
                at: point, message: "LDAP injection in '\(point.name)': an injected filter decides which entries match",
                evidence: "Request (matches all): \(request.summary)\nRequest (matches none): \(point.request(nothing[0]).summary)",
                web: WebFacts(technique: .boolean))
        ]
    }
}
