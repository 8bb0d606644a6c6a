import PythonSyntax
import Findings
import Support
import Yams

/// Parses and validates one rule file (format in `rules/README.md`).
///
/// Every key is checked, so a typo (`pattern-nto`) is an error naming the file and the key path
/// instead of a rule that silently matches too much.
public enum RuleLoader {
    static let topKeys: Set<String> = [
        "id", "message", "severity", "confidence", "languages", "cwe", "mode", "pattern", "pattern-either",
        "patterns", "sources", "sinks", "sanitizers", "fix", "metadata",
    ]

    /// Parses `text`, the contents of `file`.
    /// - Throws: `SentinelError(.invalidInput)` naming the file and the problem.
    public static func parse(_ text: String, file: String) throws -> Rule {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else { throw fail(file, "empty rule file") }
            root = node
        } catch let error as SentinelError {
            throw error
        } catch {
            let first = "\(error)".split(separator: "\n").first.map(String.init) ?? "invalid YAML"
            throw fail(file, "invalid YAML: \(first)")
        }
        let c = Cursor(file: file)
        let map = try c.mapping(root, "")
        for key in map.keys where !topKeys.contains(key) { throw fail(file, "unknown key '\(key)'") }

        guard let id = try map["id"].map({ try c.string($0, "id") }), !id.isEmpty else {
            throw fail(file, "missing 'id'")
        }
        guard let message = try map["message"].map({ try c.string($0, "message") }), !message.isEmpty else {
            throw fail(file, "missing 'message'")
        }
        guard let severityNode = map["severity"] else { throw fail(file, "missing 'severity'") }
        let severityText = try c.string(severityNode, "severity")
        guard let severity = Severity(rawValue: severityText) else {
            throw fail(file, "bad severity '\(severityText)' (expected info, low, medium, high or critical)")
        }
        var confidence = Confidence.medium
        if let node = map["confidence"] {
            let text = try c.string(node, "confidence")
            guard let value = Confidence(rawValue: text) else {
                throw fail(file, "bad confidence '\(text)' (expected low, medium or high)")
            }
            confidence = value
        }
        let languages = try map["languages"].map { try c.strings($0, "languages") } ?? ["python"]
        let cwe = try map["cwe"].map { try c.cwes($0) } ?? []
        let fix = try map["fix"].map { try c.string($0, "fix") }

        var references: [String] = []
        var bandit: [String] = []
        var semgrep: [String] = []
        if let node = map["metadata"] {
            let meta = try c.mapping(node, "metadata")
            references = try meta["references"].map { try c.strings($0, "metadata.references") } ?? []
            bandit = try meta["bandit"].map { try c.strings($0, "metadata.bandit") } ?? []
            semgrep = try meta["semgrep"].map { try c.strings($0, "metadata.semgrep") } ?? []
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
                    sources: try c.taintPatterns(sources, "sources"),
                    sinks: try c.sinks(sinks),
                    sanitizers: try map["sanitizers"].map { try c.taintPatterns($0, "sanitizers") } ?? []))
        default:
            throw fail(file, "bad mode '\(modeText)' (expected search or taint)")
        }
        return Rule(
            id: id, message: message, severity: severity, confidence: confidence, languages: languages,
            cwe: cwe, mode: mode, fix: fix, references: references, banditIds: bandit, semgrepIds: semgrep,
            file: file)
    }

    static func fail(_ file: String, _ message: String) -> SentinelError {
        SentinelError(.invalidInput, "\(file): \(message)")
    }
}

/// Typed access to YAML nodes with errors that name the file and the key path.
struct Cursor {
    var file: String

    func mapping(_ node: Node, _ path: String) throws -> [String: Node] {
        guard let mapping = node.mapping else { throw RuleLoader.fail(file, "'\(path)' must be a mapping") }
        var out: [String: Node] = [:]
        for (key, value) in mapping {
            guard let name = key.scalar?.string else { throw RuleLoader.fail(file, "non-string key in '\(path)'") }
            if out[name] != nil { throw RuleLoader.fail(file, "duplicate key '\(join(path, name))'") }
            out[name] = value
        }
        return out
    }

    func string(_ node: Node, _ path: String) throws -> String {
        guard let scalar = node.scalar else { throw RuleLoader.fail(file, "'\(path)' must be a string") }
        return scalar.string
    }

    func strings(_ node: Node, _ path: String) throws -> [String] {
        if let scalar = node.scalar { return [scalar.string] }
        guard let sequence = node.sequence else { throw RuleLoader.fail(file, "'\(path)' must be a list") }
        return try sequence.enumerated().map { try string($0.element, "\(path)[\($0.offset)]") }
    }

    func cwes(_ node: Node) throws -> [Int] {
        try strings(node, "cwe").map { text in
            let digits = text.uppercased().hasPrefix("CWE-") ? String(text.dropFirst(4)) : text
            guard let value = Int(digits), value > 0 else { throw RuleLoader.fail(file, "bad cwe '\(text)'") }
            return value
        }
    }

    func pattern(_ node: Node, _ path: String) throws -> CompiledPattern {
        let text = try string(node, path)
        do {
            return CompiledPattern(source: text, tree: try PythonParser.parsePattern(text))
        } catch let error as PythonSyntaxError {
            let shown = text.split(separator: "\n").first.map(String.init) ?? text
            throw RuleLoader.fail(
                file, "'\(path)': pattern '\(shown)' does not parse: \(error.line):\(error.column): \(error.message)")
        }
    }

    /// A formula under `key` (`pattern`, `pattern-either` or `patterns`).
    func formula(key: String, _ node: Node, path: String) throws -> PatternFormula {
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
                throw RuleLoader.fail(file, "'\(path)' needs at least one positive pattern")
            }
            return .all(clauses)
        default:
            throw RuleLoader.fail(file, "unknown key '\(path)'")
        }
    }

    func clause(_ node: Node, _ path: String) throws -> PatternClause {
        let allowed: Set<String> = [
            "pattern", "pattern-either", "patterns", "pattern-not", "pattern-inside", "pattern-not-inside",
            "metavariable-regex",
        ]
        let (key, value) = try single(node, path, allowed: allowed)
        let sub = "\(path).\(key)"
        switch key {
        case "pattern-not": return .not(try formula(key: "pattern", value, path: sub))
        case "pattern-inside": return .inside(try formula(key: "pattern", value, path: sub))
        case "pattern-not-inside": return .notInside(try formula(key: "pattern", value, path: sub))
        case "metavariable-regex":
            let map = try mapping(value, sub)
            for k in map.keys where k != "metavariable" && k != "regex" {
                throw RuleLoader.fail(file, "unknown key '\(sub).\(k)'")
            }
            guard let mv = map["metavariable"], let rx = map["regex"] else {
                throw RuleLoader.fail(file, "'\(sub)' needs 'metavariable' and 'regex'")
            }
            let name = try string(mv, "\(sub).metavariable")
            let source = try string(rx, "\(sub).regex")
            do {
                return .metavariableRegex(metavariable: name, regex: try MetavariableRegex(source: source))
            } catch {
                throw RuleLoader.fail(file, "'\(sub).regex': bad regular expression '\(source)'")
            }
        default:
            return .positive(try formula(key: key, value, path: sub))
        }
    }

    func list(_ node: Node, _ path: String) throws -> [Node] {
        guard let sequence = node.sequence, !sequence.isEmpty else {
            throw RuleLoader.fail(file, "'\(path)' must be a non-empty list")
        }
        return Array(sequence)
    }

    /// A mapping with exactly one key, from `allowed`.
    func single(_ node: Node, _ path: String, allowed: Set<String>) throws -> (String, Node) {
        let map = try mapping(node, path)
        for key in map.keys.sorted() where !allowed.contains(key) {
            throw RuleLoader.fail(file, "unknown key '\(path).\(key)'")
        }
        guard map.count == 1, let entry = map.first else {
            throw RuleLoader.fail(file, "'\(path)' must hold exactly one of \(allowed.sorted().joined(separator: ", "))")
        }
        return (entry.key, entry.value)
    }

    /// Taint sources or sanitizers: entries of `pattern` or `pattern-either` (flattened).
    func taintPatterns(_ node: Node, _ path: String) throws -> [CompiledPattern] {
        try list(node, path).enumerated().flatMap { i, entry -> [CompiledPattern] in
            let (key, value) = try single(entry, "\(path)[\(i)]", allowed: ["pattern", "pattern-either"])
            if key == "pattern" { return [try pattern(value, "\(path)[\(i)].pattern")] }
            return try taintPatterns(value, "\(path)[\(i)].pattern-either")
        }
    }

    func sinks(_ node: Node) throws -> [TaintSink] {
        try list(node, "sinks").enumerated().flatMap { i, entry -> [TaintSink] in
            let path = "sinks[\(i)]"
            let map = try mapping(entry, path)
            for key in map.keys.sorted() where !["pattern", "pattern-either", "focus"].contains(key) {
                throw RuleLoader.fail(file, "unknown key '\(path).\(key)'")
            }
            let focus = try map["focus"].map { try string($0, "\(path).focus") }
            if let focus, !focus.hasPrefix("$") {
                throw RuleLoader.fail(file, "'\(path).focus' must be a metavariable, not '\(focus)'")
            }
            var patterns: [CompiledPattern] = []
            if let p = map["pattern"] { patterns.append(try pattern(p, "\(path).pattern")) }
            if let e = map["pattern-either"] { patterns += try taintPatterns(e, "\(path).pattern-either") }
            guard !patterns.isEmpty else { throw RuleLoader.fail(file, "'\(path)' needs 'pattern'") }
            return patterns.map { TaintSink(pattern: $0, focus: focus) }
        }
    }

    private func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}
