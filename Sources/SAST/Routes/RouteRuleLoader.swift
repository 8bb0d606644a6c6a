import Documents

/// Reads a route rule (`mode: route`; format in `rules/README.md`). Every key is checked.
enum RouteRuleLoader {
    static let keys: Set<String> = [
        "id", "message", "severity", "confidence", "languages", "cwe", "metadata", "mode", "check", "authentication",
        "public", "acts-on", "ownership", "paths", "min-siblings",
    ]
    static let authenticationKeys: Set<String> = ["guards", "calls", "conditions"]

    static func parse(_ map: Mapping, _ c: Cursor) throws -> RouteRule {
        let file = c.file
        for key in map.keys where !keys.contains(key) {
            throw RuleLoader.fail(file, map.line(key), "unknown key '\(key)' in a route rule")
        }
        let header = try RuleHeader(map, c)
        guard let checkNode = map["check"] else { throw RuleLoader.fail(file, "missing 'check'") }
        let checkText = try c.string(checkNode, "check")
        guard let check = RouteCheck(rawValue: checkText) else {
            let expected = RouteCheck.allCases.map(\.rawValue).joined(separator: ", ")
            throw RuleLoader.fail(file, checkNode.line, "bad check '\(checkText)' (expected \(expected))")
        }
        guard let authNode = map["authentication"] else { throw RuleLoader.fail(file, "missing 'authentication'") }
        let auth = try c.mapping(authNode, "authentication")
        for key in auth.keys where !authenticationKeys.contains(key) {
            throw RuleLoader.fail(file, auth.line(key), "unknown key 'authentication.\(key)'")
        }
        guard let guardsNode = auth["guards"] else { throw RuleLoader.fail(file, authNode.line, "missing 'authentication.guards'") }
        let evidence = AuthenticationEvidence(
            guards: try regex(guardsNode, "authentication.guards", c),
            calls: try auth["calls"].map { try regex($0, "authentication.calls", c) },
            conditions: try auth["conditions"].map { try regex($0, "authentication.conditions", c) })
        let ownership = try map["ownership"].map { try regex($0, "ownership", c) }
        let paths = try map["paths"].map { try regex($0, "paths", c) }
        if check == .unownedObject, ownership == nil { throw RuleLoader.fail(file, "check 'unowned-object' needs 'ownership'") }
        if check == .exposedEndpoint, paths == nil { throw RuleLoader.fail(file, "check 'exposed-endpoint' needs 'paths'") }
        var minSiblings = 2
        if let node = map["min-siblings"] {
            let text = try c.string(node, "min-siblings")
            guard let value = Int(text), value >= 1, value <= 100 else {
                throw RuleLoader.fail(file, node.line, "bad min-siblings '\(text)' (expected a number from 1 to 100)")
            }
            minSiblings = value
        }
        return RouteRule(
            id: header.id, message: header.message, severity: header.severity, confidence: header.confidence,
            cwe: header.cwe, check: check, authentication: evidence,
            publicHandlers: try map["public"].map { try regex($0, "public", c) },
            actsOn: try map["acts-on"].map { try regex($0, "acts-on", c) }, ownership: ownership, paths: paths,
            minSiblings: minSiblings, references: header.references, file: file)
    }

    private static func regex(_ node: DocumentNode, _ path: String, _ c: Cursor) throws -> TemplateRegex {
        let source = try c.string(node, path)
        do {
            return TemplateRegex(try c.regex(source))
        } catch {
            throw RuleLoader.fail(c.file, node.line, "invalid regular expression '\(source)' in '\(path)'")
        }
    }
}
