import Findings
import PythonSyntax

/// Turns a rule's `fix:` templates into a finding's `Fix` (format in `rules/README.md`): the first
/// template whose metavariables are all bound replaces the matched region, laid out by
/// ``FixLayout``; each `fix-imports` module the template uses and the file does not yet import
/// gets an `import` line in a second replacement. The fix says what it changes in one line
/// (``FixDescription``).
struct FixBuilder: Sendable {
    let source: SourceText
    let imports: ModuleImports
    /// The file's tree: a region inside an f-string's field changes how the template's strings are quoted.
    let root: SyntaxNode

    /// The fix for a match of `rule` at `range` (`location` is the same region in code points);
    /// nil when no template applies.
    func fix(_ rule: Rule, range: SourceRange, location: Location, bindings: Bindings) -> Fix? {
        // The walk to the enclosing f-string only for a rule that has a template to respell.
        guard !rule.fixes.isEmpty else { return nil }
        let quote = FStringQuote.enclosing(range, root: root, source: source)
        for written in rule.fixes {
            // Inside `f"...{x}..."` a string spelled with `"` ends the f-string before Python 3.12.
            guard let spelled = quote.map({ $0.respelling(written) }) ?? written else { continue }
            let template = MetavariableTemplate(spelled)
            guard let pieces = template.resolve(bindings, holes: rule.fixHoles), let text = render(template, pieces, range) else {
                continue
            }
            var replacements = [
                Fix.Replacement(
                    startLine: location.startLine ?? range.start.line, startColumn: location.startColumn ?? 1,
                    endLine: location.endLine ?? range.end.line, endColumn: location.endColumn ?? 1, text: text)
            ]
            let wrappers = rule.fixHoles.filter { template.names($0.key) }.values.map(MetavariableTemplate.init)
            let modules = rule.fixImports.filter { module in
                (template.uses(module: module) || wrappers.contains { $0.uses(module: module) })
                    && !imports.binds(module, before: range.start.offset)
            }
            let indentation = String(
                decoding: source.lineBytes(range.start.line).prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") },
                as: UTF8.self)
            var description = FixDescription.describe(
                original: source.slice(from: range.start.offset, to: range.end.offset), replacement: text,
                indentation: indentation)
            if !modules.isEmpty {
                // The import has to run before the code that uses it.
                guard let at = imports.insertion, at.offset <= range.start.offset else { continue }
                let column = source.column(at)
                replacements.append(
                    Fix.Replacement(
                        startLine: at.line, startColumn: column, endLine: at.line, endColumn: column,
                        text: modules.map { "import \($0)" + imports.newline }.joined()))
                description += " (and import \(modules.joined(separator: ", ")))"
            }
            return Fix(description: description, replacements: replacements)
        }
        return nil
    }

    /// The text replacing `range`. A template that breaks lines gets the file's line break and the
    /// indentation of the region's line after each break; it needs the region to start its line
    /// (`if x: path = mktemp()` has no place for a second statement), else nil.
    private func render(_ template: MetavariableTemplate, _ pieces: [FixPiece], _ range: SourceRange) -> String? {
        var pieces = pieces
        if template.isMultiLine {
            let before = source.lineBytes(range.start.line).prefix(max(0, range.start.column - 1))
            guard before.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return nil }
            let lineBreak = (source.lineBreak(endingLine: range.start.line) ?? imports.newline) + String(decoding: before, as: UTF8.self)
            pieces = pieces.map { piece in
                guard case .text(let text) = piece else { return piece }
                return .text(text.reduce(into: "") { out, c in out += c.isNewline ? lineBreak : String(c) })
            }
        }
        return FixLayout.render(pieces, region: range.start.offset..<range.end.offset, source: source)
    }
}
