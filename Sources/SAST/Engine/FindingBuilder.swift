import PythonSyntax
import Findings

/// Turns a matched region and its bindings into a `Finding`: message substitution, location in
/// code points, snippet, enclosing scope and the `fix:` template.
struct FindingBuilder: Sendable {
    let file: String
    let source: SourceText
    let root: PyNode

    func finding(_ rule: Rule, range: SourceRange, bindings: Bindings, evidence: String?) -> Finding {
        let location = source.location(range, file: file)
        let scope = root.enclosingDefinitions(containing: range.start)
            .filter { $0.range.start.offset < range.start.offset }
            .compactMap(\.text).joined(separator: ".")
        var fix: Fix?
        if let template = rule.fix, let text = MetavariableTemplate.substitute(template, bindings, source, strict: true) {
            fix = Fix(
                description: "Replace with: \(text.split(separator: "\n").first.map(String.init) ?? text)",
                replacements: [
                    Fix.Replacement(
                        startLine: location.startLine ?? range.start.line, startColumn: location.startColumn ?? 1,
                        endLine: location.endLine ?? range.end.line, endColumn: location.endColumn ?? 1, text: text)
                ])
        }
        return Finding(
            ruleId: rule.id, tool: ToolName.native, severity: rule.severity, confidence: rule.confidence,
            message: MetavariableTemplate.substitute(rule.message, bindings, source, strict: false) ?? rule.message,
            location: location, cwe: rule.cwe, fix: fix, evidence: evidence,
            snippet: source.lines(range.start.line, range.end.line), enclosingScope: scope.isEmpty ? nil : scope,
            references: rule.references)
    }
}

/// `$X` substitution in messages and fix templates.
enum MetavariableTemplate {
    /// Replaces every `$NAME` / `$...NAME` bound in `bindings` with its source text. With `strict`,
    /// an unbound metavariable makes the result nil (a fix must not contain `$X`); otherwise it is
    /// left as written.
    static func substitute(_ template: String, _ bindings: Bindings, _ source: SourceText, strict: Bool) -> String? {
        var out = ""
        var chars = template[...]
        while let dollar = chars.firstIndex(of: "$") {
            out += chars[..<dollar]
            var end = template.index(after: dollar)
            if template[end...].hasPrefix("...") { end = template.index(end, offsetBy: 3) }
            let nameStart = end
            while end < template.endIndex, template[end].isUppercase || template[end].isNumber || template[end] == "_" {
                end = template.index(after: end)
            }
            let name = String(template[dollar..<end])
            if end == nameStart {
                out += name
            } else if let binding = bindings[name] {
                out += binding.text(in: source)
            } else if strict {
                return nil
            } else {
                out += name
            }
            chars = template[end...]
        }
        out += chars
        return out
    }
}
