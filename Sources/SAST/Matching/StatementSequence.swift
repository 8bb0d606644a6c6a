import PythonSyntax

/// A multi-statement pattern (`function $F(...) {...}` / `...` / `socket.on("...", $F)`) matched
/// in one statement list from each starting statement, linear in the list for the patterns rules
/// are written with (issue 76 H13, issue 77).
///
/// Matching from each start and letting `...` try every later statement costs the list's length
/// squared: a file of 5,000 functions took minutes against one such `pattern-inside`. Here the
/// statement after a `...` is first matched once at every position with no bindings (a match with
/// bindings is a match without them), and `...` tries only those positions. Where that statement
/// has a fixed shape (no `...` of its own) its metavariables bind fixed parts of it, so positions are
/// also grouped by what each binds: `...` then tries only those agreeing with what the statements
/// before it bound (`$F` of the definition). The first match found is the one
/// ``PatternMatcher/matchSequence(_:_:_:open:arguments:)`` would find: positions are tried in order.
struct StatementSequence {
    let matcher: PatternMatcher
    let pattern: [SyntaxNode]
    let statements: [SyntaxNode]
    /// Statement-against-pattern matches tried, for tests to see the work is linear.
    private(set) var attempts = 0
    /// The positions where each pattern element after a `...` may match (by pattern index).
    private var candidates: [Int: Candidates] = [:]

    /// Where one pattern element may match, and what it binds there.
    private struct Candidates {
        /// Every position where it matches with no bindings, in order.
        var positions: [Int] = []
        /// Whether the element has a fixed shape (its metavariables bind the same parts whatever
        /// was bound before).
        var fixedShape = false
        /// By metavariable, then by the name it binds (``Binding/nameKey``): the positions, in order.
        var byName: [String: [String: [Int]]] = [:]
        /// By metavariable: positions where it binds no name, or nothing (always tried).
        var unnamed: [String: [Int]] = [:]
    }

    init(pattern: [SyntaxNode], statements: [SyntaxNode], matcher: PatternMatcher) {
        self.pattern = pattern
        self.statements = statements
        self.matcher = matcher
    }

    /// Matches the pattern against a prefix of the statements from `start` (open: the rest may
    /// follow); returns the index just past the last statement consumed.
    mutating func match(from start: Int, _ bindings: inout Bindings) -> Int? {
        match(element: 0, at: start, &bindings)
    }

    private mutating func match(element i: Int, at k: Int, _ b: inout Bindings) -> Int? {
        guard i < pattern.count else { return k }
        let p = pattern[i]
        guard PatternMatcher.isWildcard(p) else {
            guard k < statements.count else { return nil }
            attempts += 1
            let saved = b
            if matcher.match(p, statements[k], &b), let end = match(element: i + 1, at: k + 1, &b) { return end }
            b = saved
            return nil
        }
        // A named run binds what it skips, and two `...` in a row skip alike: the general matcher.
        let nextIsWildcard = i + 1 < pattern.count && PatternMatcher.isWildcard(pattern[i + 1])
        if Self.isNamedRun(p) || nextIsWildcard {
            attempts += statements.count - k
            return matcher.matchSequence(pattern[i...], statements[k...], &b, open: true)
        }
        // A trailing `...` takes the rest.
        guard i + 1 < pattern.count else { return statements.count }
        for position in positions(of: i + 1, from: k, agreeingWith: b) {
            let saved = b
            if let end = match(element: i + 1, at: position, &b) { return end }
            b = saved
        }
        return nil
    }

    /// The positions from `k` on where element `i` may match given the bindings `b`, in order.
    private mutating func positions(of i: Int, from k: Int, agreeingWith b: Bindings) -> ArraySlice<Int> {
        if candidates[i] == nil { candidates[i] = find(i) }
        let found = candidates[i]!
        if found.fixedShape {
            // The first metavariable bound before that the element binds at a fixed part.
            for name in found.byName.keys.sorted() {
                guard let key = b[name]?.nameKey else { continue }
                let named = Self.suffix(found.byName[name]?[key] ?? [], from: k)
                let unnamed = Self.suffix(found.unnamed[name] ?? [], from: k)
                return unnamed.isEmpty ? named : ArraySlice((named + unnamed).sorted())
            }
        }
        return Self.suffix(found.positions, from: k)
    }

    /// Matches element `i` at every statement with no bindings.
    private mutating func find(_ i: Int) -> Candidates {
        let element = pattern[i]
        var out = Candidates()
        out.fixedShape = !Self.holdsWildcard(element)
        var seen: Set<String> = []
        var found: [(Int, Bindings)] = []
        for (position, statement) in statements.enumerated() {
            attempts += 1
            var fresh = Bindings()
            guard matcher.match(element, statement, &fresh) else { continue }
            out.positions.append(position)
            found.append((position, fresh))
            seen.formUnion(fresh.keys)
        }
        guard out.fixedShape else { return out }
        for name in seen {
            var named: [String: [Int]] = [:]
            var unnamed: [Int] = []
            for (position, fresh) in found {
                if let key = fresh[name]?.nameKey { named[key, default: []].append(position) } else { unnamed.append(position) }
            }
            out.byName[name] = named
            out.unnamed[name] = unnamed
        }
        return out
    }

    /// `$...X` as a statement of the pattern.
    private static func isNamedRun(_ p: SyntaxNode) -> Bool {
        let name = p.kind == .exprStmt ? p.children.first?.text : p.text
        return name?.hasPrefix("$...") == true
    }

    /// Whether a `...` or a named run is anywhere in `node` (its metavariables may then bind
    /// different parts on different tries).
    private static func holdsWildcard(_ node: SyntaxNode) -> Bool {
        var found = false
        node.walk { child in
            if found { return false }
            if child.kind == .ellipsis || (child.kind == .name && child.text?.hasPrefix("$...") == true) { found = true }
            return !found
        }
        return found
    }

    /// The elements of sorted `positions` from `k` on.
    private static func suffix(_ positions: [Int], from k: Int) -> ArraySlice<Int> {
        var low = 0
        var high = positions.count
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < k { low = middle + 1 } else { high = middle }
        }
        return positions[low...]
    }
}

extension Binding {
    /// The name a binding is, when it is one (an identifier, or one name node): two bindings
    /// agree only when both have the same name key or neither has one (``agrees(with:)``).
    var nameKey: String? {
        if let identifier { return identifier }
        guard nodes.count == 1, nodes[0].kind == .name else { return nil }
        return nodes[0].text
    }
}
