import Synchronization
import PythonSyntax
import Support
import Findings

/// Turns a matched region and its bindings into a `Finding`: message substitution, location in
/// code points, snippet, enclosing scope and the fix (``FixBuilder``).
struct FindingBuilder: Sendable {
    let file: String
    let source: SourceText
    let root: SyntaxNode
    private let fixes: FixBuilder
    private let definitions: DefinitionIndex
    /// Each rule's message, read into pieces once per file, not at every finding.
    private let messages = MessageTemplates()

    init(file: String, source: SourceText, root: SyntaxNode) {
        self.file = file
        self.source = source
        self.root = root
        self.fixes = FixBuilder(source: source, imports: ModuleImports(root: root, source: source), root: root)
        self.definitions = DefinitionIndex(root)
    }

    /// `fixRange`: the region a `fix:` replaces when it is not the finding's (a taint sink's focus).
    func finding(_ rule: Rule, range: SourceRange, bindings: Bindings, evidence: String?, fixRange: SourceRange? = nil) -> Finding {
        let location = source.location(range, file: file)
        let scope = definitions.enclosing(range.start)
            .filter { $0.range.start.offset < range.start.offset }
            .compactMap(\.text).joined(separator: ".")
        let fixRegion = fixRange ?? range
        let fix =
            rule.fixes.isEmpty
            ? nil
            : fixes.fix(
                rule, range: fixRegion, location: fixRange.map { source.location($0, file: file) } ?? location, bindings: bindings)
        return Finding(
            ruleId: rule.id, tool: ToolName.native, severity: rule.severity,
            confidence: confidence(rule, range: range, bindings: bindings),
            message: messages.template(rule.message).substitute(bindings, source),
            location: location, cwe: rule.cwe, fix: fix, evidence: evidence,
            snippet: source.lines(range.start.line, range.end.line), enclosingScope: scope.isEmpty ? nil : scope,
            references: rule.references)
    }
}

extension FindingBuilder {
    /// The rule's confidence, raised to medium by its `confidence-from` evidence.
    func confidence(_ rule: Rule, range: SourceRange, bindings: Bindings) -> Confidence {
        guard let from = rule.confidenceFrom, rule.confidence < .medium else { return rule.confidence }
        let nodes = bindings[from.metavariable]?.nodes ?? root.outermostNode(spanning: range).map { [$0] } ?? []
        let found = ValueEvidence(root: root).classes(of: nodes, unless: from.unlessIdentifiers)
        return found.isDisjoint(with: from.origins) ? rule.confidence : .medium
    }

    /// A step of a code flow, in this file unless the hop names another.
    func step(_ hop: FlowHop) -> FlowStep {
        if let other = hop.file, other != file {
            // Another module's positions: lines are exact, columns are not converted (no source).
            return FlowStep(
                location: Location(file: other, startLine: hop.range.start.line, startColumn: hop.range.start.column + 1),
                message: hop.note)
        }
        return FlowStep(location: source.location(hop.range, file: file), message: hop.note)
    }
}

/// The message templates a file's findings use, by their bytes.
private final class MessageTemplates: Sendable {
    private let templates = Mutex<[ExactText: MetavariableTemplate]>([:])

    func template(_ text: String) -> MetavariableTemplate {
        let key = ExactText(text)
        if let known = templates.withLock({ $0[key] }) { return known }
        let made = MetavariableTemplate(text)
        templates.withLock { $0[key] = made }
        return made
    }
}
