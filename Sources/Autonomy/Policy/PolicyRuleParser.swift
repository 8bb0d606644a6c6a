import Documents
import Support

/// The `rules` list of a policy file: each entry one mapping with an optional `id`, exactly one
/// of `allow`/`ask`/`deny` (a class, a list of classes, or `"*"`) and optional `paths`.
enum PolicyRuleParser {
    static let keys: Set<String> = ["id", "allow", "ask", "deny", "paths"]

    static func rules(_ node: DocumentNode, reader: DocumentReader) throws -> [PolicyRule] {
        guard case .array(let items) = node.value else { throw reader.fail(node, "rules", "must be a list") }
        var rules: [PolicyRule] = []
        var lines: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let rule = try self.rule(item, index: index, reader: reader)
            if let first = lines[rule.id] {
                throw reader.fail(
                    item["id"] ?? item, "rules[\(index)].id", "duplicate rule id '\(rule.id)' (first on line \(first))")
            }
            lines[rule.id] = rule.line
            rules.append(rule)
        }
        return rules
    }

    private static func rule(_ node: DocumentNode, index: Int, reader: DocumentReader) throws -> PolicyRule {
        let key = "rules[\(index)]"
        guard node.isObject else { throw reader.fail(node, key, "must be a mapping") }
        try reader.checkKeys(node, allowed: keys, at: key)
        var id = key
        if let value = node["id"] {
            id = try PolicyParser.nonEmpty(value, key: "\(key).id", reader: reader)
            // Ids land in audit entries and PR text: keep them plain, and unlike the defaults.
            guard id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
            else {
                throw reader.fail(value, "\(key).id", "'\(id)' may hold only up to 64 letters, digits, '-', '_' and '.'")
            }
        }
        let effects = node.members.filter { RuleEffect(rawValue: $0.key) != nil }
        guard let chosen = effects.first, let effect = RuleEffect(rawValue: chosen.key) else {
            throw reader.fail(node, key, "needs one of allow, ask, deny")
        }
        guard effects.count == 1 else {
            throw reader.fail(
                effects[1].line, key,
                "has both \(chosen.key) and \(effects[1].key); a rule has exactly one of allow, ask, deny")
        }
        let classes = try self.classes(chosen.value, key: "\(key).\(chosen.key)", reader: reader)
        var paths = [PathGlob(constant: "**")]
        if let value = node["paths"] {
            paths = try PolicyParser.globs(value, key: "\(key).paths", reader: reader)
            guard !paths.isEmpty else { throw reader.fail(value, "\(key).paths", "must name at least one glob") }
        }
        return PolicyRule(id: id, effect: effect, classes: classes, paths: paths, line: node.line)
    }

    /// nil for `"*"`, else the named classes.
    private static func classes(_ node: DocumentNode, key: String, reader: DocumentReader) throws -> Set<ActionClass>? {
        let items: [DocumentNode]
        switch node.value {
        case .string: items = [node]
        case .array(let elements): items = elements
        default: throw reader.fail(node, key, "must be an action class, a list of them, or \"*\"")
        }
        guard !items.isEmpty else { throw reader.fail(node, key, "must name at least one action class") }
        var classes: Set<ActionClass> = []
        for item in items {
            guard let text = item.string else { throw reader.fail(item, key, "must be an action class") }
            if text == "*" {
                guard items.count == 1 else { throw reader.fail(item, key, "'*' stands alone, not in a list of classes") }
                return nil
            }
            guard let action = ActionClass(rawValue: text) else { throw reader.fail(item, key, PolicyParser.unknownClass(text)) }
            classes.insert(action)
        }
        return classes
    }
}
