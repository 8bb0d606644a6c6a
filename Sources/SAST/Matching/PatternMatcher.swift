import PythonSyntax
/// Structural matching of a pattern tree against a code tree.
///
/// Kinds, texts and children are compared pairwise; `$X` binds, `...` stands for any run of
/// arguments, elements or statements (or any one expression), `"..."` for any string, keyword
/// arguments match in any order, and dotted names are compared after import resolution.
struct PatternMatcher: Sendable {
    let aliases: ImportAliases
    /// Charged one unit per pattern node compared; past its budget nothing matches.
    var meter = WorkMeter()

    /// Whether `pattern` matches `target`; on success `bindings` holds the new bindings, on failure
    /// it may hold partial ones (callers save and restore).
    func match(_ pattern: SyntaxNode, _ target: SyntaxNode, _ bindings: inout Bindings) -> Bool {
        match(pattern, target, &bindings, expanded: false)
    }

    private func match(_ p: SyntaxNode, _ t: SyntaxNode, _ b: inout Bindings, expanded: Bool) -> Bool {
        // Every comparison, at every depth: a pattern's `...` may try many runs of a long list.
        guard meter.charge() else { return false }
        switch p.kind {
        case .ellipsis, .empty:
            return true
        case .name:
            if let name = p.text, name.hasPrefix("$") { return bind(name, Binding(nodes: [t]), &b) }
            if t.kind == .name, t.text == p.text { return true }
            return matchExpanded(p, t, &b, expanded: expanded)
        case .string:
            // `"$S"` binds any string literal (f-strings and bytes included), source and quotes.
            if let text = p.text, Self.isStringMetavariable(text) {
                guard t.kind == .string || t.kind == .joinedStr || t.kind == .bytes else { return false }
                return bind(text, Binding(nodes: [t]), &b)
            }
            guard t.kind == .string else { return false }
            return p.text == "..." || p.text == t.text
        case .joinedStr where t.kind == .joinedStr:
            // Inside an f-string pattern a `...` piece stands for any run of text and fields.
            let pieces = p.children.map { $0.kind == .string && $0.text == "..." ? SyntaxNode(.ellipsis, range: $0.range) : $0 }
            return matchSequence(pieces[...], t.children[...], &b, open: false) != nil
        case .parameters where t.kind == .parameters:
            // Fail fast when a parameter the pattern names is missing (`def $F(..., password="...")`).
            for parameter in p.children where parameter.kind == .parameter {
                guard let name = parameter.text, !name.hasPrefix("$") else { continue }
                if !t.children.contains(where: { $0.text == name }) { return false }
            }
            return matchSequence(p.children[...], t.children[...], &b, open: false) != nil
        case .decorators where t.kind == .decorators:
            // Decorators a pattern names must be present; others may surround them.
            let open = [SyntaxNode(.ellipsis, range: p.range)] + p.children + [SyntaxNode(.ellipsis, range: p.range)]
            return matchSequence(open[...], t.children[...], &b, open: false) != nil
        case .exprStmt:
            // A lone `$S` statement binds any statement.
            if let inner = p.children.first, inner.kind == .name, let name = inner.text, name.hasPrefix("$"),
                t.kind != .exprStmt, t.kind != .block, t.kind != .module
            {
                return bind(name, Binding(nodes: [t]), &b)
            }
        default:
            break
        }
        guard p.kind == t.kind else { return matchExpanded(p, t, &b, expanded: expanded) }
        let saved = b
        if matchText(p, t, &b) {
            if p.kind == .call {
                if matchCall(p, t, &b, expanded: expanded) { return true }
            } else if matchSequence(p.children[...], t.children[...], &b, open: false) != nil {
                return true
            }
        }
        b = saved
        return p.kind == .attribute && matchExpanded(p, t, &b, expanded: expanded)
    }

    /// Whether `p` certainly does not match `t`, by the kinds, texts and child counts the pattern
    /// fixes: no binding is made, so most candidates of a search are dropped without allocating
    /// one. False when unsure (metavariables, wildcards, import aliases): ``match(_:_:_:)`` decides.
    static func cannotMatch(_ p: SyntaxNode, _ t: SyntaxNode) -> Bool {
        switch p.kind {
        case .ellipsis, .empty, .exprStmt:
            return false
        case .name:
            // A plain name matches a name, or an attribute chain through an alias.
            guard let name = p.text, !name.hasPrefix("$") else { return false }
            return t.kind != .name && t.kind != .attribute
        case .string:
            if let text = p.text, isStringMetavariable(text) { return t.kind != .string && t.kind != .joinedStr && t.kind != .bytes }
            return t.kind != .string || (p.text != "..." && p.text != t.text)
        case .attribute:
            // The import-resolved spelling of an attribute keeps its last segment.
            guard t.kind == .attribute else { return t.kind != .name }
            guard let text = p.text, !text.hasPrefix("$") else { return false }
            return text != t.text
        case .joinedStr:
            // Matched piece by piece, texts aside.
            return p.kind != t.kind
        case .parameters, .decorators:
            // Each element the pattern names takes one of the target's; a named parameter must be there.
            guard p.kind == t.kind, t.children.count >= p.children.count(where: { !isWildcard($0) }) else { return true }
            return p.kind == .parameters
                && p.children.contains { parameter in
                    guard parameter.kind == .parameter, let name = parameter.text, !name.hasPrefix("$") else { return false }
                    return !t.children.contains { $0.text == name }
                }
        default:
            break
        }
        guard p.kind == t.kind else { return true }
        if let text = p.text {
            if text.hasPrefix("$"), isIdentifierKind(p.kind) {
                if t.text == nil { return true }
            } else if text != t.text {
                return true
            }
        } else if t.text != nil, !isTextIgnored(p.kind) {
            return true
        }
        if p.kind == .call { return cannotMatchArguments(p, t) }
        // Children are matched pairwise when the pattern has no wildcard among them.
        if p.children.contains(where: isWildcard) { return false }
        guard p.children.count == t.children.count else { return true }
        for i in p.children.indices where cannotMatch(p.children[i], t.children[i]) { return true }
        return false
    }

    /// For two calls: a keyword the pattern names that the call lacks, or a first positional
    /// argument that cannot match the call's first positional one (``matchCall(_:_:_:expanded:)``).
    private static func cannotMatchArguments(_ p: SyntaxNode, _ t: SyntaxNode) -> Bool {
        let pArgs = p.children.dropFirst()
        let tArgs = t.children.dropFirst()
        for keyword in pArgs where keyword.kind == .keyword {
            guard let name = keyword.text, !name.hasPrefix("$") else { continue }
            if !tArgs.contains(where: { $0.kind == .keyword && $0.text == name }) { return true }
        }
        guard let first = pArgs.first, !isWildcard(first), !isKeywordArgument(first) else { return false }
        guard let target = tArgs.first(where: { !isKeywordArgument($0) }) else { return true }
        return cannotMatch(first, target)
    }

    /// Retries a dotted-name pattern against the import-resolved spelling of the target.
    private func matchExpanded(_ p: SyntaxNode, _ t: SyntaxNode, _ b: inout Bindings, expanded: Bool) -> Bool {
        guard !expanded, p.kind == .name || p.kind == .attribute, t.kind == .name || t.kind == .attribute,
            let full = aliases.expand(t)
        else { return false }
        return match(p, full, &b, expanded: true)
    }

    /// Compares the `text` of two nodes of one kind; `$X` in an identifier position binds it.
    private func matchText(_ p: SyntaxNode, _ t: SyntaxNode, _ b: inout Bindings) -> Bool {
        guard let text = p.text else { return t.text == nil || Self.isTextIgnored(p.kind) }
        if text.hasPrefix("$"), Self.isIdentifierKind(p.kind) {
            guard let target = t.text else { return false }
            return bind(text, Binding(nodes: [], identifier: target), &b)
        }
        return text == t.text
    }

    /// Kinds whose text is an identifier a metavariable may stand for. (A switch, not a Set:
    /// asked for every candidate node.)
    private static func isIdentifierKind(_ kind: SyntaxKind) -> Bool {
        switch kind {
        case .attribute, .keyword, .functionDef, .asyncFunctionDef, .classDef, .parameter, .varArgs, .kwArgs, .alias,
            .exceptHandler, .importFrom, .typeParam:
            return true
        default:
            return false
        }
    }

    /// Kinds whose text a pattern may leave out (a comprehension without `async`, a handler
    /// without `as name`).
    private static func isTextIgnored(_ kind: SyntaxKind) -> Bool { kind == .exceptHandler || kind == .formattedValue }

    private func bind(_ name: String, _ binding: Binding, _ b: inout Bindings) -> Bool {
        if name == "$_" { return true }
        if let existing = b[name] { return existing.agrees(with: binding) }
        b[name] = binding
        return true
    }

    // MARK: Sequences

    /// `$NAME` as the whole content of a string pattern.
    static func isStringMetavariable(_ text: String) -> Bool {
        // Bytes: asked for every string a pattern meets, and nearly always false at the first.
        let bytes = text.utf8
        guard bytes.first == UInt8(ascii: "$"), bytes.count >= 2 else { return false }
        let rest = bytes.dropFirst()
        guard let second = rest.first, second == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(second)
        else { return false }
        return rest.allSatisfy {
            $0 == UInt8(ascii: "_") || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// Whether a pattern element stands for a run of elements.
    static func isWildcard(_ p: SyntaxNode) -> Bool {
        switch p.kind {
        case .ellipsis: return true
        case .name: return p.text?.hasPrefix("$...") == true
        case .exprStmt: return p.children.first.map(isWildcard) ?? false
        case .string: return false
        default: return false
        }
    }

    /// Whether a pattern element is a named run `$...X`.
    static func isNamedRun(_ p: SyntaxNode) -> Bool { p.kind == .name && p.text?.hasPrefix("$...") == true }

    /// Keyword arguments and `**mapping`, which only match each other in an argument sequence.
    private static func isKeywordArgument(_ n: SyntaxNode) -> Bool { n.kind == .keyword || n.kind == .doubleStarred }

    /// Matches `p` against a prefix of `t` (all of `t` unless `open`); returns the index just past
    /// the last target element consumed. A trailing wildcard in an open match takes the rest.
    /// With `arguments`, elements are call arguments: a keyword matches only a keyword, a
    /// positional pattern only a positional argument (wildcards take any).
    func matchSequence(
        _ p: ArraySlice<SyntaxNode>, _ t: ArraySlice<SyntaxNode>, _ b: inout Bindings, open: Bool, arguments: Bool = false
    ) -> Int? {
        guard let first = p.first else { return open || t.isEmpty ? t.startIndex : nil }
        if Self.isWildcard(first) {
            let name = first.kind == .exprStmt ? first.children.first?.text : first.text
            let capture = name?.hasPrefix("$...") == true ? name : nil
            let rest = p.dropFirst()
            if rest.isEmpty && open {
                if let capture, !bind(capture, Binding(nodes: Array(t)), &b) { return nil }
                return t.endIndex
            }
            for k in t.startIndex...t.endIndex {
                let saved = b
                if let capture, !bind(capture, Binding(nodes: Array(t[t.startIndex..<k])), &b) {
                    b = saved
                    continue
                }
                if let end = matchSequence(rest, t[k...], &b, open: open, arguments: arguments) { return end }
                b = saved
            }
            return nil
        }
        guard let head = t.first else { return nil }
        if arguments && Self.isKeywordArgument(first) != Self.isKeywordArgument(head) { return nil }
        let saved = b
        if match(first, head, &b),
            let end = matchSequence(p.dropFirst(), t.dropFirst(), &b, open: open, arguments: arguments)
        {
            return end
        }
        b = saved
        return nil
    }

    // MARK: Calls

    /// Callee, positional arguments in order, keyword arguments in any order.
    private func matchCall(_ p: SyntaxNode, _ t: SyntaxNode, _ b: inout Bindings, expanded: Bool) -> Bool {
        let pArgs = p.children.dropFirst()
        let tArgs = t.children.dropFirst()
        // Fail fast on a missing keyword (`password=...`) before binding anything.
        for keyword in pArgs where keyword.kind == .keyword {
            guard let name = keyword.text, !name.hasPrefix("$") else { continue }
            if !tArgs.contains(where: { $0.kind == .keyword && $0.text == name }) { return false }
        }
        guard let pCallee = p.children.first, let tCallee = t.children.first,
            match(pCallee, tCallee, &b, expanded: expanded)
        else { return false }
        // Fast paths without copying arguments: `f(...)`, and calls without keywords on either side.
        if pArgs.count == 1, let only = pArgs.first, only.kind == .ellipsis { return true }
        // A named run (`$...ARGS`) binds the arguments as written, keywords included, so such a
        // pattern matches in source order: fix templates rebuild the call from its runs.
        if pArgs.contains(where: Self.isNamedRun) { return matchSequence(pArgs, tArgs, &b, open: false, arguments: true) != nil }
        let pHasKeywords = pArgs.contains { $0.kind == .keyword || $0.kind == .doubleStarred }
        let tHasKeywords = tArgs.contains { $0.kind == .keyword || $0.kind == .doubleStarred }
        if !pHasKeywords && !tHasKeywords { return matchSequence(pArgs, tArgs, &b, open: false) != nil }
        let pKeywords = pArgs.filter { $0.kind == .keyword || $0.kind == .doubleStarred }
        let pPositional = pArgs.filter { $0.kind != .keyword && $0.kind != .doubleStarred }
        let tKeywords = tArgs.filter { $0.kind == .keyword || $0.kind == .doubleStarred }
        let tPositional = tArgs.filter { $0.kind != .keyword && $0.kind != .doubleStarred }
        let open = pPositional.contains(where: Self.isWildcard)
        if !open && tKeywords.count != pKeywords.count { return false }
        guard matchSequence(pPositional[...], tPositional[...], &b, open: false) != nil else { return false }
        var used = Set<Int>()
        for keyword in pKeywords {
            var found = false
            for (i, candidate) in tKeywords.enumerated() where !used.contains(i) && candidate.kind == keyword.kind {
                let saved = b
                if keyword.kind == .doubleStarred || matchText(keyword, candidate, &b),
                    matchSequence(keyword.children[...], candidate.children[...], &b, open: false) != nil
                {
                    used.insert(i)
                    found = true
                    break
                }
                b = saved
            }
            if !found { return false }
        }
        return true
    }
}
