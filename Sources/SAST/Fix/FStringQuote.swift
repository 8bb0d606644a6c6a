import PythonSyntax

/// The quote of a one-line f-string whose replacement field holds a fix's region: before Python
/// 3.12 an expression inside `f"..."` may not use `"`, so a template's `"[REDACTED]"` is written
/// `'[REDACTED]'` there (and the reverse inside `f'...'`).
struct FStringQuote: Sendable, Equatable {
    /// `"` or `'`.
    let quote: Unicode.Scalar

    /// The innermost f-string around `range` when it is quoted with one `'` or `"` (a triple-quoted
    /// one and a JavaScript template literal take either quote), else nil.
    static func enclosing(_ range: SourceRange, root: SyntaxNode, source: SourceText) -> FStringQuote? {
        var innermost: SyntaxNode?
        root.walk { node in
            guard node.range.start.offset <= range.start.offset, node.range.end.offset >= range.end.offset else { return false }
            if node.kind == .joinedStr, node.range.start.offset < range.start.offset { innermost = node }
            return true
        }
        guard let node = innermost else { return nil }
        let head = source.slice(from: node.range.start.offset, to: min(node.range.end.offset, node.range.start.offset + 6))
        let afterPrefix = head.unicodeScalars.drop { $0.properties.isAlphabetic }
        guard let first = afterPrefix.first, first == "\"" || first == "'" else { return nil }
        let rest = afterPrefix.dropFirst()
        if rest.count >= 2, rest.prefix(2).allSatisfy({ $0 == first }) { return nil }
        return FStringQuote(quote: first)
    }

    /// `template` with its own quotes of this kind turned into the other kind; nil when it uses both
    /// (no spelling of it fits the field).
    func respelling(_ template: String) -> String? {
        let other: Unicode.Scalar = quote == "\"" ? "'" : "\""
        guard template.unicodeScalars.contains(quote) else { return template }
        guard !template.unicodeScalars.contains(other) else { return nil }
        var out = String.UnicodeScalarView()
        for scalar in template.unicodeScalars { out.append(scalar == quote ? other : scalar) }
        return String(out)
    }
}
