import PythonSyntax
/// What one metavariable is bound to: a node (`$X`), a run of nodes (`$...X`), or an identifier
/// (`subprocess.$FUNC`, `def $F(...)`).
struct Binding: Sendable {
    var nodes: [SyntaxNode]
    var identifier: String?

    /// The source text of the binding (identifiers as they are, nodes as written in `source`).
    func text(in source: SourceText) -> String {
        if let identifier { return identifier }
        guard let first = nodes.first, let last = nodes.last else { return "" }
        return source.slice(from: first.range.start.offset, to: last.range.end.offset)
    }

    /// Whether the binding's text matches `regex`: short texts through the memo, long ones as a
    /// region of the file.
    func matches(_ regex: MetavariableRegex, in source: SourceText) -> Bool {
        if identifier != nil { return regex.matches(text(in: source)) }
        guard let first = nodes.first, let last = nodes.last else { return regex.matches("") }
        let from = first.range.start.offset
        let to = last.range.end.offset
        // The literals once, on the bytes, before any string is made.
        guard mayMatch(regex, in: source) else { return false }
        if to - from <= 64 { return regex.matchesChecked(source.slice(from: from, to: to)) }
        return regex.matches(in: source.string, range: source.utf16Range(from: from, to: to))
    }

    /// Whether the binding's text may match `regex` by its literals (false: it certainly does not).
    func mayMatch(_ regex: MetavariableRegex, in source: SourceText) -> Bool {
        if let identifier { return regex.literals.mayMatch(identifier) }
        guard let first = nodes.first, let last = nodes.last else { return true }
        return regex.mayMatch(source.bytes, from: first.range.start.offset, to: last.range.end.offset)
    }

    /// Whether two bindings stand for the same code (ranges ignored).
    func agrees(with other: Binding) -> Bool {
        switch (identifier, other.identifier) {
        case (let a?, let b?): return a == b
        case (let a?, nil): return other.nodes.count == 1 && other.nodes[0].kind == .name && other.nodes[0].text == a
        case (nil, let b?): return nodes.count == 1 && nodes[0].kind == .name && nodes[0].text == b
        case (nil, nil):
            guard nodes.count == other.nodes.count else { return false }
            return zip(nodes, other.nodes).allSatisfy { Binding.sameCode($0, $1) }
        }
    }

    /// Structural equality ignoring ranges and raw spellings.
    static func sameCode(_ a: SyntaxNode, _ b: SyntaxNode) -> Bool {
        guard a.kind == b.kind, a.text == b.text, a.children.count == b.children.count else { return false }
        for i in a.children.indices where !sameCode(a.children[i], b.children[i]) { return false }
        return true
    }
}

/// Metavariable name → binding.
typealias Bindings = [String: Binding]

extension Dictionary where Key == String, Value == Binding {
    /// Whether every metavariable bound in both agrees.
    func isCompatible(with other: Bindings) -> Bool {
        for (name, binding) in self {
            if let theirs = other[name], !binding.agrees(with: theirs) { return false }
        }
        return true
    }

    /// `self` with the bindings of `other` that `self` lacks.
    func merging(_ other: Bindings) -> Bindings {
        merging(other) { mine, _ in mine }
    }
}
