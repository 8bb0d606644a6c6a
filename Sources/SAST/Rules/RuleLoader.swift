import Languages
import PythonSyntax
import SyntaxTree
import Documents
import DocumentsYAML
import Findings
import Support

/// A rule file's rule: a Python rule or a template rule.
public enum LoadedRule: Sendable {
    /// `languages: [python]` (the default).
    case python(Rule)
    /// `languages: [template]`.
    case template(TemplateRule)
    /// `mode: route`.
    case route(RouteRule)
}

/// Parses and validates one rule file (format in `rules/README.md`).
///
/// Every key is checked, so a typo (`pattern-nto`) is an error naming the file and the key path
/// instead of a rule that silently matches too much.
public enum RuleLoader {
    static let topKeys = Set<String>([
        "id", "message", "severity", "confidence", "languages", "cwe", "mode", "pattern", "pattern-either",
        "patterns", "sources", "sinks", "sanitizers", "fix", "fix-imports", "fix-holes", "metadata", "confidence-from",
        "admin-handlers-confidence",
        "application-errors-confidence",
    ]).union(ProjectScope.keys)

    /// Parses `text`, the contents of `file`, as a Python rule.
    /// - Throws: `SentinelError(.invalidInput)` naming the file and the problem.
    public static func parse(_ text: String, file: String) throws -> Rule {
        guard case .python(let rule) = try parseAny(text, file: file) else {
            throw fail(file, "a template or route rule where a Python rule is expected")
        }
        return rule
    }

    /// Parses `text`, the contents of `file`: a template rule when its `languages` are
    /// `[template]`, else a Python rule.
    /// - Throws: `SentinelError(.invalidInput)` naming the file and the problem.
    /// `library`: the source and sanitizer sets its `include:` entries may name.
    public static func parseAny(_ text: String, file: String, library: TaintLibrary = TaintLibrary()) throws -> LoadedRule {
        try parseAny(document(text, file: file), file: file, library: library)
    }

    /// The parsed YAML of a rule or set file.
    static func document(_ text: String, file: String) throws -> DocumentNode {
        // Every scalar stays text: patterns, ids and messages are strings whatever they look like.
        guard let node = try YAML.documents(Array(text.utf8), file: file, scalars: .strings).first else {
            throw fail(file, "empty rule file")
        }
        return node
    }

    /// The set a file defines (a mapping with `set:`), nil when it is a rule file.
    static func set(_ root: DocumentNode, file: String, compiling: Bool = true, trees: PatternTrees? = nil) throws
        -> TaintPatternSet?
    {
        var c = Cursor(file: file)
        c.trees = trees
        guard root.isObject, root["set"] != nil else { return nil }
        return try TaintPatternSet(try c.mapping(root, ""), c, compiling: compiling)
    }

    /// Whether the rule or set `root` may apply to a tree whose files read in the pattern
    /// syntaxes `present` (`python`, `javascript`; `template` for template files): false only
    /// when every language it names is known and absent. Anything unusual (no mapping, a
    /// language no front end reads) says true, so that compiling reports it.
    static func mayApply(_ root: DocumentNode, toAnyOf present: Set<String>) -> Bool {
        guard let names = languageNames(root) else { return true }
        return mayApply(languages: names, toAnyOf: present)
    }

    /// The `languages` of the rule or set `root` (`python` when it names none), nil when they are
    /// not a list of names (compiling reports it).
    static func languageNames(_ root: DocumentNode) -> [String]? {
        guard root.isObject else { return nil }
        guard let node = root["languages"] else { return ["python"] }
        guard case .array(let items) = node.value else { return nil }
        var names: [String] = []
        for item in items {
            guard case .string(let name) = item.value else { return nil }
            names.append(name)
        }
        return names
    }

    /// ``mayApply(_:toAnyOf:)`` of a file whose `languages` are `names` (``languageNames(_:)``).
    static func mayApply(languages names: [String], toAnyOf present: Set<String>) -> Bool {
        for name in names {
            if name == TemplateRuleLoader.language {
                if present.contains(name) { return true }
            } else if let language = SourceLanguage(ruleName: name) {
                if present.contains(language.patternSyntax) { return true }
            } else {
                return true
            }
        }
        return names.isEmpty
    }

    /// `checked`: the file compiled in full before (``Cursor/compiledBefore``).
    /// `trees`: the patterns lowered so far, and the rule pack.
    static func parseAny(
        _ root: DocumentNode, file: String, library: TaintLibrary, checked: Bool = false, trees: PatternTrees? = nil
    ) throws -> LoadedRule {
        var c = Cursor(file: file, library: library)
        c.compiledBefore = checked
        c.trees = trees
        let map = try c.mapping(root, "")
        if map["set"] != nil { throw fail(file, map.line("set"), "a set file, not a rule (load it with the rules' directory)") }
        if let node = map["languages"], try c.strings(node, "languages") == [TemplateRuleLoader.language] {
            return .template(try TemplateRuleLoader.parse(map, c))
        }
        if let node = map["mode"], try c.string(node, "mode") == "route" {
            return .route(try RouteRuleLoader.parse(map, c))
        }
        return .python(try parse(map, c))
    }

    private static func parse(_ map: Mapping, _ c: Cursor) throws -> Rule {
        let file = c.file
        for key in map.keys where !topKeys.contains(key) { throw fail(file, map.line(key), "unknown key '\(key)'") }

        let header = try RuleHeader(map, c)
        var c = c
        c.syntax = try Self.patternSyntax(of: header.languages, map, c)
        let fixes =
            try map["fix"].map { try c.fixTemplates($0, bound: c.compiledBefore ? [] : FixMetavariables.bound(by: map.node)) } ?? []
        let fixImports = try map["fix-imports"].map { try c.modules($0, "fix-imports") } ?? []
        if !fixImports.isEmpty && fixes.isEmpty { throw fail(file, map.line("fix-imports"), "'fix-imports' needs 'fix'") }
        let fixHoles = try map["fix-holes"].map { try c.fixHoles($0, templates: fixes) } ?? [:]
        // The import a fix adds is written as a Python `import` line.
        if !fixImports.isEmpty && c.syntax != .python {
            throw fail(file, map.line("fix-imports"), "'fix-imports' is for Python rules (it adds an `import` line)")
        }

        let searchKeys = ["pattern", "pattern-either", "patterns"].filter { map[$0] != nil }
        let taintKeys = ["sources", "sinks", "sanitizers"].filter { map[$0] != nil }
        let modeText = try map["mode"].map { try c.string($0, "mode") } ?? "search"
        let mode: RuleMode
        switch modeText {
        case "search":
            guard searchKeys.count == 1, let key = searchKeys.first, let node = map[key] else {
                throw fail(file, "a search rule needs exactly one of 'pattern', 'pattern-either', 'patterns'")
            }
            if let key = taintKeys.first { throw fail(file, "'\(key)' needs 'mode: taint'") }
            mode = .search(try c.formula(key: key, node, path: key))
        case "taint":
            if let key = searchKeys.first { throw fail(file, "'\(key)' is not allowed in a taint rule") }
            guard let sources = map["sources"], let sinks = map["sinks"] else {
                throw fail(file, "a taint rule needs 'sources' and 'sinks'")
            }
            mode = .taint(
                TaintSpec(
                    sources: try c.sources(sources),
                    sinks: try c.sinks(sinks),
                    sanitizers: try map["sanitizers"].map { try c.sanitizers($0) } ?? [],
                    sourceSets: try c.includedSets(sources, "sources"),
                    sanitizerSets: try map["sanitizers"].map { try c.includedSets($0, "sanitizers") } ?? []))
        default:
            throw fail(file, map.line("mode"), "bad mode '\(modeText)' (expected search, taint or route)")
        }
        let confidenceFrom = try map["confidence-from"].map { try c.confidenceFrom($0) }
        if confidenceFrom != nil, modeText != "search" {
            throw fail(file, map.line("confidence-from"), "'confidence-from' needs a search rule (a taint flow is evidence already)")
        }
        let adminHandlersConfidence = try map["admin-handlers-confidence"].map { try c.confidence($0, "admin-handlers-confidence") }
        let applicationErrorsConfidence = try map["application-errors-confidence"].map {
            try c.confidence($0, "application-errors-confidence")
        }
        var rule = Rule(
            id: header.id, message: header.message, severity: header.severity, confidence: header.confidence,
            languages: header.languages, cwe: header.cwe, mode: mode, fixes: fixes, fixImports: fixImports,
            references: header.references, banditIds: header.bandit, semgrepIds: header.semgrep, file: file,
            confidenceFrom: confidenceFrom, scope: try ProjectScope(map, c), adminHandlersConfidence: adminHandlersConfidence)
        rule.applicationErrorsConfidence = applicationErrorsConfidence
        rule.fixHoles = fixHoles
        return rule
    }

    /// The syntax of the patterns of a rule or set for `languages`: every entry must be a language
    /// the engine reads, all of one syntax (a Python pattern does not parse as JavaScript).
    static func patternSyntax(of languages: [String], _ map: Mapping, _ c: Cursor) throws -> PatternSyntax {
        var syntaxes: [PatternSyntax] = []
        for name in languages {
            guard let language = SourceLanguage(ruleName: name) else {
                throw fail(
                    c.file, map.line("languages"),
                    "unknown language '\(name)' (expected \(Self.registeredLanguageNames); template rules name only template)")
            }
            let syntax = PatternSyntax(name: language.patternSyntax)
            if !syntaxes.contains(syntax) { syntaxes.append(syntax) }
        }
        guard syntaxes.count <= 1 else {
            let names = syntaxes.map(\.name).joined(separator: " with ")
            throw fail(c.file, map.line("languages"), "'languages' mixes the patterns of \(names): write one rule per syntax")
        }
        return syntaxes.first ?? .python
    }

    /// The registered languages' names as an error lists them: `python, javascript or typescript`.
    static var registeredLanguageNames: String {
        let names = Languages.registry.all.map(\.name)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// `FILE:LINE: message` (`FILE: message` when `line` is 0: the problem has no one place).
    static func fail(_ file: String, _ line: Int, _ message: String) -> SentinelError {
        SentinelError(.invalidInput, line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)")
    }

    /// `FILE: message`, for a problem of the whole file (a missing key).
    static func fail(_ file: String, _ message: String) -> SentinelError { fail(file, 0, message) }
}

/// A mapping's members by key, in document order, with the line each key is written on.
struct Mapping {
    let node: DocumentNode
    private let byKey: [String: DocumentMember]

    init(_ node: DocumentNode, members: [String: DocumentMember]) {
        self.node = node
        byKey = members
    }

    subscript(key: String) -> DocumentNode? { byKey[key]?.value }
    /// Keys in document order.
    var keys: [String] { node.members.map(\.key) }
    var count: Int { byKey.count }
    /// The line of `key`, else of the mapping.
    func line(_ key: String) -> Int { byKey[key]?.line ?? node.line }
}

/// Typed access to rule documents with errors that name the file, the line and the key path.
struct Cursor {
    var file: String
    /// The sets `include:` may name.
    var library = TaintLibrary()
    /// The front end that parses the patterns (the rule's or set's `languages`).
    var syntax = PatternSyntax.python
    /// Whether the file compiled in full before (the shipped rules' index describes it): its
    /// regular expressions are compiled at their first use (``CompiledRegex``) and its fix
    /// templates are not checked again.
    var compiledBefore = false
    /// The patterns lowered so far and the rule pack (``PatternTrees``); nil: each pattern is
    /// lowered where it is met.
    var trees: PatternTrees? = nil

    /// The expression `source` of a `metavariable-regex` or a template rule, compiled (or, when
    /// ``compiledBefore``, compiled at its first use) with ``trees``'s literals.
    func regex(_ source: String) throws -> PreparedRegex {
        try PreparedRegex(source: source, checked: compiledBefore, trees: trees)
    }

    /// The tree of pattern `text` in ``syntax``.
    func lower(_ text: String) throws(SourceReadError) -> SyntaxNode {
        if let trees { return try trees.tree(text, syntax: syntax) }
        return try syntax.lower(text)
    }

    func mapping(_ node: DocumentNode, _ path: String) throws -> Mapping {
        guard node.isObject else { throw RuleLoader.fail(file, node.line, "'\(path)' must be a mapping") }
        var out: [String: DocumentMember] = [:]
        for member in node.members {
            if out[member.key] != nil { throw RuleLoader.fail(file, member.line, "duplicate key '\(join(path, member.key))'") }
            out[member.key] = member
        }
        return Mapping(node, members: out)
    }

    func string(_ node: DocumentNode, _ path: String) throws -> String {
        guard let text = node.scalarText else { throw RuleLoader.fail(file, node.line, "'\(path)' must be a string") }
        return text
    }

    func strings(_ node: DocumentNode, _ path: String) throws -> [String] {
        if let text = node.scalarText { return [text] }
        guard node.isArray else { throw RuleLoader.fail(file, node.line, "'\(path)' must be a list") }
        return try node.elements.enumerated().map { try string($0.element, "\(path)[\($0.offset)]") }
    }

    /// `fix`: one template or a list tried in order; none may be empty, each must parse as code of
    /// the rule's language, and each may name only metavariables the rule's own formula binds
    /// (`bound`): a template naming another could never apply, which is a typo, not a choice.
    func fixTemplates(_ node: DocumentNode, bound: Set<String>) throws -> [String] {
        let templates = try strings(node, "fix")
        if compiledBefore { return templates }
        guard !templates.isEmpty, !templates.contains(where: { $0.allSatisfy(\.isWhitespace) }) else {
            throw RuleLoader.fail(file, node.line, "'fix' must not be empty")
        }
        let elements = node.isArray ? node.elements : [node]
        for (offset, template) in templates.enumerated() {
            let line = offset < elements.count ? elements[offset].line : node.line
            let path = node.isArray ? "fix[\(offset)]" : "fix"
            let shown = template.split(whereSeparator: \.isNewline).first.map(String.init) ?? template
            do throws(SourceReadError) {
                _ = try syntax.lower(FixMetavariables.placeholders(in: template, run: syntax == .python ? "*" : "..."))
            } catch {
                throw RuleLoader.fail(file, line, "'\(path)': '\(shown)' does not parse: \(error.line):\(error.column): \(error.message)")
            }
            if let unbound = FixMetavariables.named(in: template).first(where: { !bound.contains($0) }) {
                throw RuleLoader.fail(file, line, "'\(path)' names \(unbound), which no pattern of the rule binds")
            }
        }
        return templates
    }

    /// `fix-holes: {$BODY: html.escape(str($HOLE))}`: each key a metavariable some `fix` template
    /// names, each value a Python expression holding `$HOLE` once and no quote (it is written
    /// inside f-string fields, where a quote could end the string before Python 3.12).
    func fixHoles(_ node: DocumentNode, templates: [String]) throws -> [String: String] {
        let map = try mapping(node, "fix-holes")
        guard !templates.isEmpty else { throw RuleLoader.fail(file, node.line, "'fix-holes' needs 'fix'") }
        guard syntax == .python else { throw RuleLoader.fail(file, node.line, "'fix-holes' is for Python rules") }
        var out: [String: String] = [:]
        for key in map.keys {
            let line = map.line(key)
            guard let valueNode = map[key] else { continue }
            let wrapper = try string(valueNode, "fix-holes.\(key)")
            guard templates.contains(where: { FixMetavariables.named(in: $0).contains(key) }) else {
                throw RuleLoader.fail(file, line, "'fix-holes': no 'fix' template names \(key)")
            }
            guard wrapper.components(separatedBy: "$HOLE").count == 2 else {
                throw RuleLoader.fail(file, line, "'fix-holes.\(key)' must hold $HOLE once")
            }
            guard !wrapper.contains("\""), !wrapper.contains("'") else {
                throw RuleLoader.fail(file, line, "'fix-holes.\(key)' must not hold a quote")
            }
            if !compiledBefore {
                do throws(SourceReadError) {
                    _ = try syntax.lower(wrapper.replacingOccurrences(of: "$HOLE", with: "hole"))
                } catch {
                    throw RuleLoader.fail(file, line, "'fix-holes.\(key)': '\(wrapper)' does not parse: \(error.message)")
                }
            }
            out[key] = wrapper
        }
        return out
    }

    /// Dotted module names (`shlex`, `os.path`).
    func modules(_ node: DocumentNode, _ path: String) throws -> [String] {
        try strings(node, path).map { name in
            let valid = name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
                guard let first = part.unicodeScalars.first, first == "_" || first.properties.isXIDStart else { return false }
                return part.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isXIDContinue }
            }
            guard valid else { throw RuleLoader.fail(file, node.line, "'\(path)': '\(name)' is not a module name") }
            return name
        }
    }

    func cwes(_ node: DocumentNode) throws -> [Int] {
        try strings(node, "cwe").map { text in
            let digits = text.uppercased().hasPrefix("CWE-") ? String(text.dropFirst(4)) : text
            guard let value = Int(digits), value > 0 else { throw RuleLoader.fail(file, node.line, "bad cwe '\(text)'") }
            return value
        }
    }

    func pattern(_ node: DocumentNode, _ path: String) throws -> CompiledPattern {
        let text = try string(node, path)
        do throws(SourceReadError) {
            return CompiledPattern(source: text, tree: try lower(text))
        } catch {
            let shown = text.split(separator: "\n").first.map(String.init) ?? text
            throw RuleLoader.fail(
                file, node.line, "'\(path)': pattern '\(shown)' does not parse: \(error.line):\(error.column): \(error.message)")
        }
    }

    /// A formula under `key` (`pattern`, `pattern-either` or `patterns`).
    func formula(key: String, _ node: DocumentNode, path: String) throws -> PatternFormula {
        switch key {
        case "pattern":
            return .pattern(try pattern(node, path))
        case "pattern-either":
            return .either(
                try list(node, path).enumerated().map { i, entry in
                    let (k, v) = try single(entry, "\(path)[\(i)]", allowed: ["pattern", "pattern-either", "patterns"])
                    return try formula(key: k, v, path: "\(path)[\(i)].\(k)")
                })
        case "patterns":
            let clauses = try list(node, path).enumerated().map { i, entry in
                try clause(entry, "\(path)[\(i)]")
            }
            guard clauses.contains(where: { if case .positive = $0 { true } else { false } }) else {
                throw RuleLoader.fail(file, node.line, "'\(path)' needs at least one positive pattern")
            }
            return .all(clauses)
        default:
            throw RuleLoader.fail(file, node.line, "unknown key '\(path)'")
        }
    }

    /// The operand of `pattern-not`, `pattern-inside` and `pattern-not-inside`: a pattern, or a
    /// mapping holding one formula (`patterns:` with its own regexes, or `pattern-either:`).
    func operand(_ node: DocumentNode, path: String) throws -> PatternFormula {
        guard node.isObject else { return try formula(key: "pattern", node, path: path) }
        let (key, value) = try single(node, path, allowed: ["pattern", "pattern-either", "patterns"])
        return try formula(key: key, value, path: "\(path).\(key)")
    }

    func clause(_ node: DocumentNode, _ path: String) throws -> PatternClause {
        let allowed: Set<String> = [
            "pattern", "pattern-either", "patterns", "pattern-not", "pattern-inside", "pattern-not-inside",
            "metavariable-regex", "metavariable-value",
        ]
        let (key, value) = try single(node, path, allowed: allowed)
        let sub = "\(path).\(key)"
        switch key {
        case "pattern-not": return .not(try operand(value, path: sub))
        case "pattern-inside": return .inside(try operand(value, path: sub))
        case "pattern-not-inside": return .notInside(try operand(value, path: sub))
        case "metavariable-regex":
            let map = try mapping(value, sub)
            for k in map.keys where k != "metavariable" && k != "regex" {
                throw RuleLoader.fail(file, map.line(k), "unknown key '\(sub).\(k)'")
            }
            guard let mv = map["metavariable"], let rx = map["regex"] else {
                throw RuleLoader.fail(file, value.line, "'\(sub)' needs 'metavariable' and 'regex'")
            }
            let name = try string(mv, "\(sub).metavariable")
            let source = try string(rx, "\(sub).regex")
            do {
                return .metavariableRegex(metavariable: name, regex: MetavariableRegex(try regex(source)))
            } catch {
                throw RuleLoader.fail(file, rx.line, "'\(sub).regex': bad regular expression '\(source)'")
            }
        case "metavariable-value":
            let map = try mapping(value, sub)
            let formulas: Set<String> = ["pattern", "pattern-either", "patterns"]
            for k in map.keys where k != "metavariable" && !formulas.contains(k) {
                throw RuleLoader.fail(file, map.line(k), "unknown key '\(sub).\(k)'")
            }
            let given = map.keys.filter(formulas.contains)
            guard let mv = map["metavariable"], given.count == 1, let key = given.first, let node = map[key] else {
                throw RuleLoader.fail(
                    file, value.line, "'\(sub)' needs 'metavariable' and one of pattern, pattern-either, patterns")
            }
            let name = try string(mv, "\(sub).metavariable")
            guard name.hasPrefix("$") else {
                throw RuleLoader.fail(file, map.line("metavariable"), "'\(sub).metavariable' must be a metavariable, not '\(name)'")
            }
            return .metavariableValue(metavariable: name, formula: try formula(key: key, node, path: "\(sub).\(key)"))
        default:
            return .positive(try formula(key: key, value, path: sub))
        }
    }

    func list(_ node: DocumentNode, _ path: String) throws -> [DocumentNode] {
        guard node.isArray, !node.elements.isEmpty else {
            throw RuleLoader.fail(file, node.line, "'\(path)' must be a non-empty list")
        }
        return node.elements
    }

    /// A mapping with exactly one key, from `allowed`.
    func single(_ node: DocumentNode, _ path: String, allowed: Set<String>) throws -> (String, DocumentNode) {
        let map = try mapping(node, path)
        for key in map.keys.sorted() where !allowed.contains(key) {
            throw RuleLoader.fail(file, map.line(key), "unknown key '\(path).\(key)'")
        }
        guard map.count == 1, let key = map.keys.first, let value = map[key] else {
            throw RuleLoader.fail(
                file, node.line, "'\(path)' must hold exactly one of \(allowed.sorted().joined(separator: ", "))")
        }
        return (key, value)
    }

    /// Taint sources or sanitizers: entries of `pattern` or `pattern-either` (flattened).
    func taintPatterns(_ node: DocumentNode, _ path: String) throws -> [CompiledPattern] {
        try list(node, path).enumerated().flatMap { i, entry in try patternEntry(entry, "\(path)[\(i)]") }
    }

    /// One entry of ``taintPatterns(_:_:)``: `pattern` or `pattern-either`.
    func patternEntry(_ entry: DocumentNode, _ path: String) throws -> [CompiledPattern] {
        let (key, value) = try single(entry, path, allowed: ["pattern", "pattern-either"])
        if key == "pattern" { return [try pattern(value, "\(path).pattern")] }
        return try taintPatterns(value, "\(path).pattern-either")
    }

    /// Taint sanitizers: ``taintPatterns(_:_:)`` entries, or `include: SET` of a sanitizer set.
    func sanitizers(_ node: DocumentNode) throws -> [CompiledPattern] {
        try list(node, "sanitizers").enumerated().flatMap { i, entry -> [CompiledPattern] in
            let path = "sanitizers[\(i)]"
            guard entry.isObject, entry["include"] != nil else { return try patternEntry(entry, path) }
            return try included(entry, path, from: library.sanitizers, kind: "sanitizer") { $0 }
        }
    }

    /// The names of the sets a `sources:` or `sanitizers:` list includes.
    func includedSets(_ node: DocumentNode, _ path: String) throws -> [String] {
        try node.elements.compactMap { entry in try entry["include"].map { try string($0, path) } }
    }

    /// The members of the set an `include: NAME` entry names (at `path`), less those its
    /// `except: [PATTERN, ...]` lists as written in the set: a rule that must not take a source
    /// says so. An unknown set, or an `except` pattern the set does not have, is an error.
    func included<Member>(
        _ entry: DocumentNode, _ path: String, from sets: [String: [Member]], kind: String,
        pattern: (Member) -> CompiledPattern
    ) throws -> [Member] {
        let map = try mapping(entry, path)
        for key in map.keys.sorted() where key != "include" && key != "except" {
            throw RuleLoader.fail(file, map.line(key), "unknown key '\(path).\(key)' (an include takes only 'except')")
        }
        let name = try string(map["include"]!, "\(path).include")
        guard let members = sets[name] else {
            let known = library.names.joined(separator: ", ")
            throw RuleLoader.fail(
                file, map.line("include"), "'\(path).include': no \(kind) set '\(name)' (known sets: \(known.isEmpty ? "none" : known))")
        }
        guard library.syntaxes[name] == syntax else {
            throw RuleLoader.fail(
                file, map.line("include"), "'\(path).include': set '\(name)' is written for another language than this rule")
        }
        let excluded = try map["except"].map { try strings($0, "\(path).except") } ?? []
        for text in excluded where !members.contains(where: { pattern($0).source == text }) {
            throw RuleLoader.fail(file, map.line("except"), "'\(path).except': set '\(name)' has no pattern '\(text)'")
        }
        return members.filter { !excluded.contains(pattern($0).source) }
    }

    /// Taint sources: like ``taintPatterns(_:_:)``, each entry with an optional `kind: remote|local`
    /// and `pattern-inside:` (for every alternative), or `include: SET` of a source set.
    func sources(_ node: DocumentNode) throws -> [TaintSource] {
        try list(node, "sources").enumerated().flatMap { i, entry -> [TaintSource] in
            let path = "sources[\(i)]"
            if entry.isObject, entry["include"] != nil {
                return try included(entry, path, from: library.sources, kind: "source", pattern: \.pattern)
            }
            let map = try mapping(entry, path)
            for key in map.keys.sorted() where !["pattern", "pattern-either", "kind", "pattern-inside", "in"].contains(key) {
                throw RuleLoader.fail(file, map.line(key), "unknown key '\(path).\(key)'")
            }
            var isLocal = false
            var isLibrary = false
            if let kind = map["kind"] {
                switch try string(kind, "\(path).kind") {
                case "remote": isLocal = false
                case "local": isLocal = true
                case "library": isLibrary = true
                case let other:
                    throw RuleLoader.fail(
                        file, map.line("kind"), "bad '\(path).kind' '\(other)' (expected remote, local or library)")
                }
            }
            var patterns: [CompiledPattern] = []
            if let p = map["pattern"] { patterns.append(try pattern(p, "\(path).pattern")) }
            if let e = map["pattern-either"] { patterns += try taintPatterns(e, "\(path).pattern-either") }
            guard patterns.count >= 1, (map["pattern"] == nil) != (map["pattern-either"] == nil) else {
                throw RuleLoader.fail(file, entry.line, "'\(path)' must hold exactly one of pattern, pattern-either")
            }
            let inside = try map["pattern-inside"].map { try pattern($0, "\(path).pattern-inside") }
            var part: RequestPart?
            if let value = map["in"] {
                let text = try string(value, "\(path).in")
                guard let parsed = RequestPart(rawValue: text) else {
                    let known = RequestPart.allCases.map(\.rawValue).joined(separator: ", ")
                    throw RuleLoader.fail(file, map.line("in"), "bad '\(path).in' '\(text)' (expected one of \(known))")
                }
                part = parsed
            }
            return patterns.map {
                TaintSource(pattern: $0, isLocal: isLocal, inside: inside, isLibrary: isLibrary, requestPart: part)
            }
        }
    }

    func sinks(_ node: DocumentNode) throws -> [TaintSink] {
        try list(node, "sinks").enumerated().flatMap { i, entry -> [TaintSink] in
            let path = "sinks[\(i)]"
            let map = try mapping(entry, path)
            let allowed = [
                "pattern", "pattern-either", "focus", "pattern-inside", "pattern-not", "pattern-not-inside", "metavariable-regex",
                "metavariable-value", "evidence",
            ]
            for key in map.keys.sorted() where !allowed.contains(key) {
                throw RuleLoader.fail(file, map.line(key), "unknown key '\(path).\(key)'")
            }
            let focus = try map["focus"].map { try string($0, "\(path).focus") }
            if let focus, !focus.hasPrefix("$") {
                throw RuleLoader.fail(file, map.line("focus"), "'\(path).focus' must be a metavariable, not '\(focus)'")
            }
            var patterns: [CompiledPattern] = []
            if let p = map["pattern"] { patterns.append(try pattern(p, "\(path).pattern")) }
            if let e = map["pattern-either"] { patterns += try taintPatterns(e, "\(path).pattern-either") }
            guard !patterns.isEmpty else { throw RuleLoader.fail(file, entry.line, "'\(path)' needs 'pattern'") }
            let inside = try map["pattern-inside"].map { try pattern($0, "\(path).pattern-inside") }
            func patternList(_ key: String) throws -> [CompiledPattern] {
                guard let value = map[key] else { return [] }
                guard case .array = value.value else { return [try pattern(value, "\(path).\(key)")] }
                return try list(value, "\(path).\(key)").enumerated().map { j, item in try pattern(item, "\(path).\(key)[\(j)]") }
            }
            let excluded = try patternList("pattern-not")
            let notInside = try patternList("pattern-not-inside")
            // Each condition is read as a `patterns:` clause of its own (same keys, same errors).
            func conditionList(_ map: Mapping, _ path: String) throws -> [PatternClause] {
                var conditions: [PatternClause] = []
                for key in ["metavariable-regex", "metavariable-value"] {
                    guard let value = map[key] else { continue }
                    let items = value.isArray ? try list(value, "\(path).\(key)") : [value]
                    for item in items {
                        let member = DocumentMember(key: key, line: item.line, column: item.column, value: item)
                        conditions.append(try clause(DocumentNode(.object([member]), line: item.line, column: item.column), path))
                    }
                }
                return conditions
            }
            let conditions = try conditionList(map, path)
            var evidence: [PatternClause] = []
            if let node = map["evidence"] {
                let evidenceMap = try mapping(node, "\(path).evidence")
                for key in evidenceMap.keys.sorted() where !["metavariable-regex", "metavariable-value"].contains(key) {
                    throw RuleLoader.fail(file, evidenceMap.line(key), "unknown key '\(path).evidence.\(key)'")
                }
                evidence = try conditionList(evidenceMap, "\(path).evidence")
                if evidence.isEmpty {
                    throw RuleLoader.fail(file, node.line, "'\(path).evidence' needs metavariable-value or metavariable-regex")
                }
            }
            return patterns.map {
                TaintSink(
                    pattern: $0, focus: focus, inside: inside, excluded: excluded, notInside: notInside, conditions: conditions,
                    evidence: evidence)
            }
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
