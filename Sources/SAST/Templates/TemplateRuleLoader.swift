import Documents
import TemplateSyntax

/// Reads a template rule (`languages: [template]`; format in `rules/README.md`). Every key is
/// checked, as for Python rules.
enum TemplateRuleLoader {
    /// The `languages` value of a template rule.
    static let language = "template"

    static let keys = Set<String>([
        "id", "message", "severity", "confidence", "languages", "cwe", "metadata", "construct", "pattern-regex",
        "pattern-not-regex", "context", "autoescaped", "elements", "fix-regex",
    ]).union(ProjectScope.keys)

    static func parse(_ map: Mapping, _ c: Cursor) throws -> TemplateRule {
        let file = c.file
        for key in map.keys where !keys.contains(key) {
            throw RuleLoader.fail(file, map.line(key), "unknown key '\(key)' in a template rule")
        }
        let header = try RuleHeader(map, c)
        guard let constructNode = map["construct"] else { throw RuleLoader.fail(file, "missing 'construct'") }
        let constructText = try c.string(constructNode, "construct")
        guard let construct = TemplateConstruct(rawValue: constructText) else {
            let expected = TemplateConstruct.allCases.map(\.rawValue).joined(separator: ", ")
            throw RuleLoader.fail(file, constructNode.line, "bad construct '\(constructText)' (expected \(expected))")
        }
        guard let regexNode = map["pattern-regex"] else { throw RuleLoader.fail(file, "missing 'pattern-regex'") }
        let regex = try compile(try c.string(regexNode, "pattern-regex"), regexNode, c)
        let notRegexes =
            try map["pattern-not-regex"].map { node in
                try c.strings(node, "pattern-not-regex").map { try compile($0, node, c) }
            } ?? []
        var contexts: Set<OutputContext>?
        if let node = map["context"] {
            guard construct == .output else { throw RuleLoader.fail(file, node.line, "'context' applies to outputs only") }
            contexts = Set(
                try c.strings(node, "context").map { text in
                    guard let context = OutputContext(rawValue: text) else {
                        let expected = OutputContext.allCases.map(\.rawValue).joined(separator: ", ")
                        throw RuleLoader.fail(file, node.line, "bad context '\(text)' (expected \(expected))")
                    }
                    return context
                })
        }
        var autoescaped: Bool?
        if let node = map["autoescaped"] {
            guard construct == .output else { throw RuleLoader.fail(file, node.line, "'autoescaped' applies to outputs only") }
            let text = try c.string(node, "autoescaped")
            guard text == "true" || text == "false" else {
                throw RuleLoader.fail(file, node.line, "bad autoescaped '\(text)' (expected true or false)")
            }
            autoescaped = text == "true"
        }
        var elements: Set<String>?
        if let node = map["elements"] {
            guard construct == .element else { throw RuleLoader.fail(file, node.line, "'elements' applies to elements only") }
            elements = Set(try c.strings(node, "elements").map { $0.lowercased() })
        }
        let scope = try ProjectScope(map, c)
        let fix = try map["fix-regex"].map { try fixRegex($0, c) }
        var rule = TemplateRule(
            id: header.id, message: header.message, severity: header.severity, confidence: header.confidence,
            cwe: header.cwe, construct: construct, regex: regex, notRegexes: notRegexes, contexts: contexts,
            autoescaped: autoescaped, elements: elements, scope: scope,
            references: header.references,
            banditIds: header.bandit, semgrepIds: header.semgrep, file: file)
        rule.fix = fix
        return rule
    }

    /// `fix-regex: {regex: R, replacement: S}` (Semgrep's keys; `count` is not taken: the first
    /// match of R in the finding's text is the one replaced).
    static func fixRegex(_ node: DocumentNode, _ c: Cursor) throws -> TemplateFix {
        let map = try c.mapping(node, "fix-regex")
        for key in map.keys where key != "regex" && key != "replacement" {
            throw RuleLoader.fail(c.file, map.line(key), "unknown key 'fix-regex.\(key)' (expected regex, replacement)")
        }
        guard let regexNode = map["regex"] else { throw RuleLoader.fail(c.file, node.line, "'fix-regex' needs 'regex'") }
        guard let replacementNode = map["replacement"] else {
            throw RuleLoader.fail(c.file, node.line, "'fix-regex' needs 'replacement'")
        }
        return TemplateFix(
            regex: try compile(try c.string(regexNode, "fix-regex.regex"), regexNode, c),
            replacement: try c.string(replacementNode, "fix-regex.replacement"))
    }

    /// Compiles a rule's regular expression; throws naming the file and the line.
    static func compile(_ source: String, _ node: DocumentNode, _ c: Cursor) throws -> TemplateRegex {
        do {
            return TemplateRegex(try c.regex(source))
        } catch {
            throw RuleLoader.fail(c.file, node.line, "invalid regular expression '\(source)'")
        }
    }
}
