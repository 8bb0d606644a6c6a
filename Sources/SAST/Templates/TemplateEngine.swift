import Findings
import Foundation
import TemplateSyntax

/// What scanning one template produced.
public struct TemplateScanResult: Sendable {
    /// Findings, sorted by position then rule id.
    public var findings: [Finding]
    /// What the tokenizer could not read as a template would (`FILE:LINE: unterminated {{`).
    public var problems: [String]
    /// Bounds hit: the rest of the file was not analysed (`FILE:LINE: more than ...`).
    public var bounds: [String]
    /// For each finding, the variable of the view's context an unescaped output starts from
    /// (`notes` of `{% for note in notes %}{{ note.text|safe }}`), for a cross-site scripting
    /// output rule; nil for other findings and outputs that start otherwise.
    public var outputRoots: [String?] = []
}

/// Runs template rules over Jinja2/Django templates (``TemplateDocument``).
public struct TemplateEngine: Sendable {
    /// The rules, sorted by id.
    public let rules: [TemplateRule]

    /// An engine for `rules`.
    public init(rules: [TemplateRule]) { self.rules = rules }

    /// Scans the template `bytes`; `file` is the path findings carry. `project` is what the
    /// project's Python code says (nil: unknown, every rule applies, as in rule tests).
    /// `safeVariables`: variables the template's context holds as markup the application built
    /// safely (``TemplateContext/safe``); a cross-site scripting rule does not report their output.
    public func scan(file: String, bytes: [UInt8], project: ProjectFacts?, safeVariables: Set<String> = []) -> TemplateScanResult {
        let document = TemplateDocument(bytes: bytes)
        return scan(file: file, document: document, bindings: TemplateBindings(document), project: project, safeVariables: safeVariables)
    }

    /// Scans the template `template`, read already (as ``scan(file:bytes:project:safeVariables:)``).
    public func scan(file: String, template: ParsedTemplate, project: ProjectFacts?, safeVariables: Set<String> = [])
        -> TemplateScanResult
    {
        // The outline read the template's bindings already.
        scan(file: file, document: template.document, bindings: template.outline.bindings, project: project, safeVariables: safeVariables)
    }

    private func scan(
        file: String, document: TemplateDocument, bindings: TemplateBindings, project: ProjectFacts?, safeVariables: Set<String>
    ) -> TemplateScanResult {
        var findings: [Finding] = []
        // The variable each cross-site scripting output starts from, by rule and line.
        var roots: [String: String] = [:]
        for rule in rules where project?.applies(rule.id, rule.scope) ?? true {
            var lines = Set<Int>()
            let isMarkupOutput = rule.construct == .output && rule.cwe.contains(79)
            let judgesMarkup = isMarkupOutput && !safeVariables.isEmpty
            for region in Self.regions(of: rule, in: document) {
                let text = document.text(region)
                // What an element's body renders in place counts as written there: a Django
                // template-partials `{% partial name %}` renders the file's `{% partialdef name %}`.
                let rendered = rule.construct == .element ? bindings.withPartials(text) : text
                if rule.notRegexes.contains(where: { $0.occurs(in: rendered) }) { continue }
                let root = isMarkupOutput ? Self.rootVariable(of: text) : nil
                if judgesMarkup, let root, safeVariables.contains(root) { continue }
                for match in rule.regex.matches(in: text) {
                    guard let range = Self.byteRange(match, in: text, base: region.lowerBound) else { continue }
                    let finding = Self.finding(rule, range: range, document: document, file: file)
                    // One finding per rule and line, as for Python rules.
                    if lines.insert(finding.location.startLine ?? 0).inserted {
                        findings.append(finding)
                        if let root { roots[Self.key(finding)] = root }
                    }
                }
            }
        }
        findings = Self.strongestPerLine(findings)
        findings.sort {
            ($0.location.startLine ?? 0, $0.location.startColumn ?? 0, $0.ruleId)
                < ($1.location.startLine ?? 0, $1.location.startColumn ?? 0, $1.ruleId)
        }
        func text(_ problem: TemplateProblem) -> String { "\(file):\(document.position(of: problem.offset).line): \(problem.message)" }
        var result = TemplateScanResult(
            findings: findings, problems: document.problems.filter { !$0.isBound }.map(text),
            bounds: document.problems.filter(\.isBound).map(text))
        result.outputRoots = findings.map { finding in
            guard finding.cwe.contains(79), let root = roots[Self.key(finding)] else { return nil }
            return bindings.contextVariable(from: root)
        }
        return result
    }

    /// What the frameworks put into every template's context, whatever the views pass: Flask's
    /// and Jinja2's `request`, `session`, `g`, `config`, Flask-Login's `current_user`, Django's
    /// `request`, `user`, `perms`, `messages`. An output from them is judged where it is.
    static let frameworkVariables: Set<String> = [
        "request", "session", "g", "config", "current_user", "user", "perms", "messages",
    ]

    private static func key(_ finding: Finding) -> String {
        "\(finding.ruleId)#\(finding.location.startLine ?? 0)"
    }

    /// `result` with its unescaped outputs whose context variable no view is seen to pass
    /// lowered to low confidence: `passed` holds the variables the template's context is seen to
    /// hold (``TemplateContext/passed``: from the project's render calls and from the templates
    /// that include, extend or import it); nil when unknown (a call passes what its file does not
    /// show, or a referrer's own context is unknown). Where the value of
    /// a variable no view passes comes from is not seen (a class-based view's context, another
    /// framework's render): issue 55, 0 of 38 such `|safe` findings judged true on real code.
    public static func placed(_ result: TemplateScanResult, passed: Set<String>?) -> [Finding] {
        guard let passed else { return result.findings }
        return zip(result.findings, result.outputRoots).map { finding, root in
            guard let root, !passed.contains(root), !frameworkVariables.contains(root), finding.confidence > .low
            else { return finding }
            var copy = finding
            copy.confidence = .low
            copy.message +=
                " (no view of the project is seen passing `\(root)` to this template, so where its value comes from is unknown: low confidence)"
            return copy
        }
    }

    /// The variable an output expression starts from (`body` of `body|safe`, `log` of
    /// `log.display_object|safe`); nil when it starts otherwise (a call, a literal).
    static func rootVariable(of expression: String) -> String? {
        let trimmed = expression.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "-" }
        let name = trimmed.prefix { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        guard let first = name.first, !first.isNumber else { return nil }
        let rest = trimmed.dropFirst(name.count).drop { $0 == " " }
        guard rest.isEmpty || rest.first == "|" || rest.first == "." || rest.first == "[" else { return nil }
        return String(name)
    }

    /// One finding per line and CWE: the most severe (then most confident) rule's, as a proven
    /// flow supersedes an audit finding of the same weakness (`innerHTML = ... + location.hash`
    /// is DOM XSS from the URL, not also "HTML built from a variable").
    static func strongestPerLine(_ findings: [Finding]) -> [Finding] {
        var best: [String: Finding] = [:]
        var order: [String] = []
        for finding in findings {
            let key = "\(finding.location.startLine ?? 0)#\(finding.cwe)"
            guard let other = best[key] else {
                best[key] = finding
                order.append(key)
                continue
            }
            if (finding.severity, finding.confidence, other.ruleId) > (other.severity, other.confidence, finding.ruleId) {
                best[key] = finding
            }
        }
        return order.compactMap { best[$0] }
    }

    /// The byte ranges the rule's expressions read: its construct, where its conditions hold.
    static func regions(of rule: TemplateRule, in document: TemplateDocument) -> [Range<Int>] {
        switch rule.construct {
        case .output:
            return document.outputs.filter { output in
                (rule.contexts?.contains(output.context) ?? true) && (rule.autoescaped.map { $0 == output.autoescaped } ?? true)
            }.map(\.expression)
        case .tag:
            return document.tags.map(\.content)
        case .element:
            return document.elements.filter { rule.elements?.contains($0.name) ?? true }.map { element in
                element.range.lowerBound..<max(element.range.upperBound, element.body?.upperBound ?? 0)
            }
        }
    }

    /// The bytes of the match `match` (UTF-16 offsets in `text`, which starts at byte `base`).
    private static func byteRange(_ match: NSRange, in text: String, base: Int) -> Range<Int>? {
        guard let range = Range(match, in: text) else { return nil }
        let start = text.utf8.distance(from: text.startIndex, to: range.lowerBound)
        let end = text.utf8.distance(from: text.startIndex, to: range.upperBound)
        return (base + start)..<(base + max(start, end))
    }

    private static func finding(_ rule: TemplateRule, range: Range<Int>, document: TemplateDocument, file: String) -> Finding {
        let start = document.position(of: range.lowerBound)
        let end = document.position(of: range.upperBound)
        let snippet = (start.line...max(start.line, min(end.line, start.line + 4))).map(document.line).joined(separator: "\n")
        var finding = Finding(
            ruleId: rule.id, severity: rule.severity, confidence: rule.confidence, message: rule.message,
            location: Location(file: file, startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column),
            cwe: rule.cwe, snippet: snippet, references: rule.references)
        let matched = document.text(range)
        if let fix = rule.fix, let rewritten = fix.apply(to: matched) {
            finding.fix = Fix(
                description: rewritten.isEmpty
                    ? "Remove `\(matched.trimmingCharacters(in: .whitespaces))`"
                    : "Replace `\(matched.trimmingCharacters(in: .whitespaces))` with `\(rewritten.trimmingCharacters(in: .whitespaces))`",
                replacements: [
                    Fix.Replacement(
                        startLine: start.line, startColumn: start.column, endLine: end.line, endColumn: end.column, text: rewritten)
                ])
        }
        return finding
    }
}

/// Which files are templates, and which web frameworks a project's Python code imports.
public enum TemplateFiles {
    /// Extensions of template files (without the dot).
    public static let extensions: Set<String> = ["html", "htm", "jinja", "jinja2", "j2", "djhtml", "tpl"]

    /// Whether `file` (relative path) with these bytes is a template: it holds template syntax
    /// (`{{`, `{%`, `{#`) or lies under a `templates/` directory.
    public static func isTemplate(_ file: String, bytes: [UInt8]) -> Bool {
        if file.hasPrefix("templates/") || file.contains("/templates/") { return true }
        var previous: UInt8 = 0
        for byte in bytes {
            if previous == UInt8(ascii: "{") && (byte == UInt8(ascii: "{") || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "#")) {
                return true
            }
            previous = byte
        }
        return false
    }

    /// The top-level modules `text` (a Python file) imports (`flask` of `from flask.views import View`).
    public static func importedTopLevelModules(in text: String) -> Set<String> {
        Set(ImportScan.imports(in: text).compactMap { topLevelModule($0.module, $0.name) })
    }

    /// The top-level module of one import (`(module, name)` as ``ImportScan`` gives it); nil for a
    /// relative one.
    static func topLevelModule(_ module: String, _ name: String) -> String? {
        let written = module.isEmpty ? name : module
        guard !written.hasPrefix("."), let top = written.split(separator: ".").first else { return nil }
        return String(top)
    }
}
