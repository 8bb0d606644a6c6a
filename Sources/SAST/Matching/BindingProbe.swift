import PythonSyntax

/// Where a pattern binds a metavariable, when that place is fixed by the pattern's shape: a child
/// of a node matched child by child, or a call's first positional argument. A candidate whose code
/// there fails a `metavariable-regex`'s literals cannot make a match the regex keeps, so a search
/// drops it before matching (no bindings are made for it).
struct BindingProbe: Sendable {
    /// One step down from a pattern node to the corresponding target node.
    enum Step: Sendable {
        /// Child `index` of a node of `kind`, matched pairwise.
        case child(Int, of: SyntaxKind)
        /// The first argument of a call that is neither a keyword nor `**mapping`.
        case firstPositional
    }

    let steps: [Step]
    /// The kind whose identifier the metavariable binds (`obj.$ATTR`, `def $F`); nil when it binds
    /// the node found (`$X`, `"$S"`).
    let identifierKind: SyntaxKind?
    let regex: MetavariableRegex

    /// The probe for `name` in `pattern`; nil when the regex has no literals or the place is not
    /// fixed (a wildcard before it, a second occurrence, an import alias that may reshape it).
    init?(_ name: String, in pattern: SyntaxNode, regex: MetavariableRegex) {
        guard !regex.literals.required.isEmpty, name.hasPrefix("$"), !name.hasPrefix("$..."), name != "$_" else { return nil }
        var occurrences = 0
        pattern.walk { node in
            if node.text == name { occurrences += 1 }
            return true
        }
        guard occurrences == 1, let found = Self.path(to: name, from: pattern) else { return nil }
        steps = found.steps
        identifierKind = found.identifierKind
        self.regex = regex
    }

    private static func path(to name: String, from p: SyntaxNode) -> (steps: [Step], identifierKind: SyntaxKind?)? {
        if p.text == name {
            switch p.kind {
            case .name: return ([], nil)
            case .string: return PatternMatcher.isStringMetavariable(name) ? ([], nil) : nil
            case .attribute, .functionDef, .asyncFunctionDef, .classDef: return ([], p.kind)
            default: return nil
            }
        }
        switch p.kind {
        case .call:
            guard let first = p.children.dropFirst().first, !PatternMatcher.isWildcard(first), first.kind != .keyword,
                first.kind != .doubleStarred, let rest = path(to: name, from: first)
            else { return nil }
            return ([.firstPositional] + rest.steps, rest.identifierKind)
        case .name, .attribute, .string, .joinedStr, .parameters, .decorators, .exprStmt, .ellipsis, .empty, .module:
            // Matched otherwise than child by child (aliases, pieces, sequences).
            return nil
        default:
            if p.children.contains(where: PatternMatcher.isWildcard) { return nil }
            for (i, child) in p.children.enumerated() {
                if let rest = path(to: name, from: child) { return ([.child(i, of: p.kind)] + rest.steps, rest.identifierKind) }
            }
            return nil
        }
    }

    /// Whether a match of the pattern at `target` may pass the regex (false: it certainly fails).
    func mayPass(_ target: SyntaxNode, in source: SourceText) -> Bool {
        var t = target
        for step in steps {
            switch step {
            case .child(let i, let kind):
                guard t.kind == kind, i < t.children.count else { return true }
                t = t.children[i]
            case .firstPositional:
                let arguments = t.children.dropFirst()
                guard t.kind == .call, let argument = arguments.first(where: { $0.kind != .keyword && $0.kind != .doubleStarred })
                else { return true }
                t = argument
            }
        }
        if let identifierKind {
            // A name reaches an attribute pattern through its alias, with another identifier.
            guard t.kind == identifierKind, let text = t.text else { return true }
            return regex.literals.mayMatch(text)
        }
        return Binding(nodes: [t]).mayMatch(regex, in: source)
    }
}
