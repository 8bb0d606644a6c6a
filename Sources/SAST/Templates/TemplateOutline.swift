import Foundation
import TemplateSyntax

/// What a template says of the contexts of the templates it includes, extends or imports: which
/// it references, and what it hands each (its own context, the names it binds, a tag's
/// `with a=expr`). Read once per template, before any template is scanned.
public struct TemplateOutline: Sendable {
    let bindings: TemplateBindings

    /// The outline of `document`.
    public init(_ document: TemplateDocument) { bindings = TemplateBindings(document) }

    /// The templates this one references, in order.
    public var references: [TemplateReference] { bindings.references }

    /// The parameters of this template's macros: what their callers pass them.
    public var macroParameters: Set<String> { bindings.macroParameters }

    /// What one name holds where this template hands it on.
    private enum Value {
        /// A value the code shows, safe markup or not.
        case shown(safe: Bool)
        /// Nothing this template's context gives: undefined for the referenced template.
        case undefined
        /// What this template's context does not show.
        case unknown
    }

    /// The context the template `reference` names gets from this one, whose own context is
    /// `context`: that context (unless the tag isolates it), the names this template binds
    /// itself (tags are read file-wide, as ``TemplateBindings`` reads them, so a loop around
    /// the tag counts), and the tag's own bindings, which shadow both.
    public func handed(through reference: TemplateReference, from context: TemplateContext) -> TemplateContext {
        var values: [(name: String, value: Value)] = []
        if !reference.isolated {
            for name in bindings.bound.keys.sorted() {
                values.append((name, value(ofVariable: bindings.contextVariable(from: name), in: context)))
            }
        }
        for (name, expression) in reference.bindings.sorted(by: { $0.key < $1.key }) {
            values.append((name, value(of: expression, in: context)))
        }
        var handed = reference.isolated ? TemplateContext() : context
        // A value from what the context does not show makes the handed context unknown too;
        // joined first, so that the names bound to shown values stay known.
        if values.contains(where: { if case .unknown = $0.value { true } else { false } }) { handed.join(.unknown) }
        for (name, value) in values {
            switch value {
            case .shown(let safe): handed.bind(name, safe: safe)
            case .undefined, .unknown: handed.unbind(name)
            }
        }
        return handed
    }

    /// What `expression` (a tag binding's value, as written in this template) holds.
    private func value(of expression: String, in context: TemplateContext) -> Value {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        if Self.isLiteral(trimmed) || Self.isConfiguration(trimmed) { return .shown(safe: true) }
        // A call's result, or anything else not from a variable: judged unsafe, not followed.
        guard let root = TemplateEngine.rootVariable(of: trimmed) else { return .shown(safe: false) }
        return value(ofVariable: bindings.contextVariable(from: root), in: context)
    }

    /// What the context variable `variable` holds (nil: a value not from the context, such as a
    /// call's result, judged unsafe).
    private func value(ofVariable variable: String?, in context: TemplateContext) -> Value {
        guard let variable, !TemplateEngine.frameworkVariables.contains(variable) else { return .shown(safe: false) }
        if context.variables[variable] != nil { return .shown(safe: context.isSafe(variable)) }
        return context.isUnknown ? .unknown : .undefined
    }

    /// A string or number literal, `True`, `False`, `None`.
    private static func isLiteral(_ expression: String) -> Bool {
        if ["True", "False", "None", "true", "false", "none"].contains(expression) { return true }
        if let quote = expression.first, quote == "\"" || quote == "'" {
            return expression.count >= 2 && expression.last == quote && !expression.dropFirst().dropLast().contains(quote)
        }
        return !expression.isEmpty && expression.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") }
    }

    /// The operator's configuration (`config.BANNER_TOP`, `settings.SITE_NAME`), as the
    /// `template.safe-filter` rule treats it written directly under `|safe`: not a user's text.
    static func isConfiguration(_ expression: String) -> Bool {
        expression.range(of: #"^(config|settings|app\.config)\.[A-Z][A-Z0-9_]*$"#, options: .regularExpression) != nil
    }
}
