import PythonSyntax
import Support
/// One place a pattern or formula matched, with its metavariable bindings.
struct PatternMatch: Sendable {
    var range: SourceRange
    var bindings: Bindings
}

/// Finds every match of patterns and formulas in one indexed file.
struct PatternSearch: Sendable {
    let index: FileIndex
    let matcher: PatternMatcher

    init(index: FileIndex) {
        self.index = index
        self.matcher = PatternMatcher(aliases: index.aliases, meter: index.meter)
    }

    /// Every match of one pattern (inside `within`'s regions, when given).
    /// `probes`: regexes its matches must pass, tried on each candidate before matching.
    func matches(_ pattern: SyntaxNode, within: [EnclosingRegions] = [], probes: [BindingProbe] = []) -> [PatternMatch] {
        if pattern.kind == .module { return sequenceMatches(pattern.children).filter { within.encloses($0.range) } }
        var out: [PatternMatch] = []
        for node in index.candidates(for: pattern)
        where within.encloses(node.range) && !PatternMatcher.cannotMatch(pattern, node)
            && probes.allSatisfy({ $0.mayPass(node, in: index.source) })
        {
            // Past the file's work budget the engine reports the file instead (``WorkMeter``).
            if index.meter.isExhausted { break }
            var bindings = Bindings()
            if matcher.match(pattern, node, &bindings) { out.append(PatternMatch(range: node.range, bindings: bindings)) }
        }
        return out
    }

    /// Every match of a compiled pattern: none, unsearched, in a file that lacks the identifiers or
    /// strings every match of it needs.
    func matches(_ pattern: CompiledPattern, within: [EnclosingRegions] = [], probes: [BindingProbe] = []) -> [PatternMatch] {
        guard pattern.requiredIdentifiers.isSubset(of: index.identifiers), index.hasStrings(pattern.requiredStrings) else {
            return []
        }
        return matches(pattern.tree, within: within, probes: probes)
    }

    /// A run of statements matched against every statement list, from every starting statement.
    /// (``StatementSequence``: linear in each list for the patterns rules use.)
    private func sequenceMatches(_ statements: [SyntaxNode]) -> [PatternMatch] {
        sequenceMatchesCountingWork(statements).matches
    }

    /// ``sequenceMatches(_:)`` with the statement matches it tried (tests check the work is linear).
    func sequenceMatchesCountingWork(_ statements: [SyntaxNode]) -> (matches: [PatternMatch], attempts: Int) {
        var out: [PatternMatch] = []
        var attempts = 0
        for block in index.blocks {
            let children = block.children
            var search = StatementSequence(pattern: statements, statements: children, matcher: matcher)
            for start in children.indices {
                if index.meter.isExhausted { break }
                var bindings = Bindings()
                guard let end = search.match(from: start, &bindings), end > start else { continue }
                let range = SourceRange(start: children[start].range.start, end: children[end - 1].range.end)
                out.append(PatternMatch(range: range, bindings: bindings))
            }
            attempts += search.attempts
        }
        return (out, attempts)
    }

    /// Every match of a search formula. `within`: only the matches each of these regions
    /// encloses are wanted (a caller drops the others), so no other is built.
    /// `regexes`: `metavariable-regex` clauses every wanted match passes (a seed's), tried where
    /// a pattern binds their metavariable at a fixed place (``BindingProbe``).
    func matches(
        _ formula: PatternFormula, within: [EnclosingRegions] = [], regexes: [(name: String, regex: MetavariableRegex)] = []
    ) -> [PatternMatch] {
        switch formula {
        case .pattern(let pattern):
            let probes = regexes.compactMap { BindingProbe($0.name, in: pattern.tree, regex: $0.regex) }
            return matches(pattern, within: within, probes: probes)
        case .either(let alternatives):
            return alternatives.flatMap { matches($0, within: within, regexes: regexes) }
        case .all(let clauses):
            return matches(clauses, within: within)
        }
    }

    private func matches(_ clauses: [PatternClause], within outer: [EnclosingRegions] = []) -> [PatternMatch] {
        guard let firstPositive = clauses.firstIndex(where: { if case .positive = $0 { true } else { false } }),
            case .positive(let seed) = clauses[firstPositive]
        else { return [] }
        // A string the seed binds (`"$S"` in every alternative) that a regex must match: when no
        // string literal of the file matches, neither can the seed's bindings.
        for case .metavariableRegex(let name, let regex) in clauses where Self.bindsString(name, seed) {
            guard anyStringLiteral(matches: regex, within: outer) else { return [] }
        }
        // A `pattern-inside` keeps only the matches its matches enclose, and a match's range never
        // changes: searched first, it confines the seed (a logging call, a `try` block), which
        // is often a bare metavariable that every expression of the file would match.
        var within = outer
        var insideMatches: (clause: Int, matches: [PatternMatch])?
        if let i = clauses.firstIndex(where: { if case .inside = $0 { true } else { false } }), case .inside(let formula) = clauses[i] {
            let found = matches(formula)
            if found.isEmpty { return [] }
            insideMatches = (i, found)
            within.append(EnclosingRegions(found.map(\.range)))
        }
        var current =
            Self.bareMetavariable(seed).flatMap { bareRegexSeed($0, clauses, within: within) }
            ?? namedCallSeed(seed, clauses, within: within) ?? matches(seed, within: within, regexes: Self.regexes(clauses))
        // Cheap filter first: a regex on a binding the seed already made costs far less than
        // matching another pattern over the whole file, and each regex's literals cost less than
        // any regex. (Bindings that later clauses make are checked in order below.)
        for case .metavariableRegex(let name, let regex) in clauses {
            current.removeAll { m in m.bindings[name].map { !$0.mayMatch(regex, in: index.source) } ?? false }
        }
        for case .metavariableRegex(let name, let regex) in clauses {
            current.removeAll { m in m.bindings[name].map { !$0.matches(regex, in: index.source) } ?? false }
        }
        for (i, clause) in clauses.enumerated() where i != firstPositive {
            if current.isEmpty { break }
            switch clause {
            case .positive(let formula):
                let others = Self.byRange(matches(formula))
                current = current.compactMap { m in
                    others[m.range]?.first { m.bindings.isCompatible(with: $0.bindings) }
                        .map { PatternMatch(range: m.range, bindings: m.bindings.merging($0.bindings)) }
                }
            case .not(let formula):
                let others = Self.byRange(matches(formula))
                current.removeAll { m in
                    others[m.range]?.contains { m.bindings.isCompatible(with: $0.bindings) } ?? false
                }
            case .inside(let formula):
                let others = insideMatches?.clause == i ? insideMatches!.matches : matches(formula)
                // One unit per pair compared: N matches inside N regions may compare N² pairs.
                current = current.compactMap { m in
                    others.first { index.meter.charge() && Self.contains($0.range, m.range) && m.bindings.isCompatible(with: $0.bindings) }
                        .map { PatternMatch(range: m.range, bindings: m.bindings.merging($0.bindings)) }
                }
            case .notInside(let formula):
                let others = matches(formula)
                current.removeAll { m in
                    others.contains {
                        index.meter.charge() && Self.contains($0.range, m.range) && m.bindings.isCompatible(with: $0.bindings)
                    }
                }
            case .metavariableRegex(let name, let regex):
                current.removeAll { m in
                    guard let binding = m.bindings[name] else { return true }
                    return !binding.matches(regex, in: index.source)
                }
                if !regex.captureNames.isEmpty { current = current.compactMap { bindGroups(of: regex, on: name, in: $0) } }
            case .metavariableValue(let name, let formula):
                let origins = ValueOrigins(root: index.root, assignments: index.scopeAssignments)
                current = current.compactMap { m in
                    guard let binding = m.bindings[name], binding.identifier == nil, binding.nodes.count == 1 else {
                        return nil
                    }
                    for value in origins.values(of: binding.nodes[0]) {
                        if let found = matches(formula, at: value), m.bindings.isCompatible(with: found) {
                            return PatternMatch(range: m.range, bindings: m.bindings.merging(found))
                        }
                    }
                    return nil
                }
            }
        }
        return current
    }

    /// The `metavariable-regex` clauses of a `patterns:` formula.
    private static func regexes(_ clauses: [PatternClause]) -> [(name: String, regex: MetavariableRegex)] {
        clauses.compactMap { clause in
            if case .metavariableRegex(let name, let regex) = clause { return (name, regex) }
            return nil
        }
    }

    /// `matches` grouped by range, in their order: a clause comparing ranges looks its candidates
    /// up instead of scanning every match for each (quadratic on a generated file).
    private static func byRange(_ matches: [PatternMatch]) -> [SourceRange: [PatternMatch]] {
        Dictionary(grouping: matches, by: \.range)
    }

    /// The bindings of a match of `formula` exactly at `node`, or nil. Patterns and alternatives are
    /// tried on the node itself (which may be synthetic, like the `T()` of an annotation); a
    /// `patterns` formula is searched in the file and must match the node's range.
    func matches(_ formula: PatternFormula, at node: SyntaxNode) -> Bindings? {
        switch formula {
        case .pattern(let pattern):
            guard pattern.tree.kind != .module else { return nil }
            var bindings = Bindings()
            return matcher.match(pattern.tree, node, &bindings) ? bindings : nil
        case .either(let alternatives):
            for alternative in alternatives {
                if let found = matches(alternative, at: node) { return found }
            }
            return nil
        case .all(let clauses):
            // Only a match the node's range encloses can have that range.
            return matches(clauses, within: [EnclosingRegions([node.range])]).first { $0.range == node.range }?.bindings
        }
    }

    /// Whether `bindings` meet a taint sink's `metavariable-regex` and `metavariable-value`
    /// conditions, checked as the clauses of a `patterns:` formula are.
    func satisfies(_ conditions: [PatternClause], _ bindings: Bindings) -> Bool {
        var origins: ValueOrigins?
        for condition in conditions {
            switch condition {
            case .metavariableRegex(let name, let regex):
                guard let binding = bindings[name], binding.matches(regex, in: index.source) else { return false }
            case .metavariableValue(let name, let formula):
                guard let binding = bindings[name], binding.identifier == nil, binding.nodes.count == 1 else { return false }
                if origins == nil { origins = ValueOrigins(root: index.root, assignments: index.scopeAssignments) }
                let found = origins!.values(of: binding.nodes[0]).contains { value in
                    matches(formula, at: value).map { bindings.isCompatible(with: $0) } ?? false
                }
                if !found { return false }
            default:
                continue
            }
        }
        return true
    }

    /// `m` with the metavariables the regex's named groups bind; nil when one disagrees with an
    /// existing binding.
    private func bindGroups(of regex: MetavariableRegex, on name: String, in m: PatternMatch) -> PatternMatch? {
        guard let text = m.bindings[name]?.text(in: index.source), let groups = regex.captures(text) else { return nil }
        var bindings = m.bindings
        for (group, value) in groups {
            let binding = Binding(nodes: [], identifier: value)
            if let existing = bindings[group], !existing.agrees(with: binding) { return nil }
            bindings[group] = binding
        }
        return PatternMatch(range: m.range, bindings: bindings)
    }

    /// Whether every match of `formula` binds `name` to a string literal (`"$S"`).
    static func bindsString(_ name: String, _ formula: PatternFormula) -> Bool {
        switch formula {
        case .pattern(let pattern):
            return pattern.stringMetavariables.contains(name)
        case .either(let alternatives):
            return !alternatives.isEmpty && alternatives.allSatisfy { bindsString(name, $0) }
        case .all(let clauses):
            return clauses.contains { clause in
                if case .positive(let inner) = clause { return bindsString(name, inner) }
                return false
            }
        }
    }

    /// Whether some string literal of the file (f-strings and bytes included) that `within`'s
    /// regions enclose matches `regex`: a seed's match, and so its string, lies inside them.
    private func anyStringLiteral(matches regex: MetavariableRegex, within: [EnclosingRegions]) -> Bool {
        // Literals absent from the whole file are absent from each of its strings.
        guard index.lowercased.mayContain(regex.literals) else { return false }
        for kind in [SyntaxKind.string, .joinedStr, .bytes] {
            // The literals on the bytes first: most strings fail them, and no binding is made for those.
            for node in index.nodes(of: kind)
            where regex.mayMatch(index.source.bytes, from: node.range.start.offset, to: node.range.end.offset)
                && within.encloses(node.range) && Binding(nodes: [node]).matches(regex, in: index.source)
            {
                return true
            }
        }
        return false
    }

    /// `$X` when the formula is exactly a bare metavariable.
    private static func bareMetavariable(_ formula: PatternFormula) -> String? {
        guard case .pattern(let pattern) = formula, pattern.tree.kind == .name, let name = pattern.tree.text,
            name.hasPrefix("$"), !name.hasPrefix("$...")
        else { return nil }
        return name
    }

    /// `pattern: $S` with `metavariable-regex` on `$S` (string-content rules): test the regex on
    /// every expression before building any match, since nearly all fail.
    private func bareRegexSeed(_ name: String, _ clauses: [PatternClause], within: [EnclosingRegions]) -> [PatternMatch]? {
        var regexes: [MetavariableRegex] = []
        for case .metavariableRegex(let variable, let regex) in clauses where variable == name { regexes.append(regex) }
        if regexes.isEmpty { return nil }
        var out: [PatternMatch] = []
        for node in index.expressions where within.encloses(node.range) {
            guard index.meter.charge() else { break }
            let binding = Binding(nodes: [node])
            if regexes.allSatisfy({ binding.matches($0, in: index.source) }) {
                out.append(PatternMatch(range: node.range, bindings: [name: binding]))
            }
        }
        return out
    }

    /// `$RECV.$M(...)` with `metavariable-regex` on `$M`: `$M` binds the last segment of the
    /// callee (``FileIndex/callKeys(_:_:)``), so only calls with a key the regexes accept are
    /// tried, in the index's order; most calls of a file are rejected by name before any match.
    private func namedCallSeed(_ seed: PatternFormula, _ clauses: [PatternClause], within: [EnclosingRegions]) -> [PatternMatch]? {
        guard case .pattern(let pattern) = seed, pattern.tree.kind == .call, let callee = pattern.tree.children.first,
            callee.kind == .attribute, let name = callee.text, name.hasPrefix("$"), !name.hasPrefix("$..."), name != "$_"
        else { return nil }
        var regexes: [MetavariableRegex] = []
        for case .metavariableRegex(let variable, let regex) in clauses where variable == name { regexes.append(regex) }
        if regexes.isEmpty { return nil }
        guard pattern.requiredIdentifiers.isSubset(of: index.identifiers), index.hasStrings(pattern.requiredStrings) else {
            return []
        }
        var out: [PatternMatch] = []
        for node in index.calls(namedBy: regexes) where within.encloses(node.range) && !PatternMatcher.cannotMatch(pattern.tree, node) {
            var bindings = Bindings()
            if matcher.match(pattern.tree, node, &bindings) { out.append(PatternMatch(range: node.range, bindings: bindings)) }
        }
        return out
    }

    static func contains(_ outer: SourceRange, _ inner: SourceRange) -> Bool {
        outer.start.offset <= inner.start.offset && inner.end.offset <= outer.end.offset
    }
}

/// Source regions, for asking fast whether one of them encloses a range.
struct EnclosingRegions: Sendable {
    /// Start offsets, ascending.
    private let starts: [Int]
    /// For each position, the largest end offset of the regions up to it.
    private let furthestEnds: [Int]

    init(_ ranges: [SourceRange]) {
        let sorted = ranges.map { ($0.start.offset, $0.end.offset) }.sorted { $0 < $1 }
        starts = sorted.map(\.0)
        var furthest = Int.min
        furthestEnds = sorted.map { region in
            furthest = max(furthest, region.1)
            return furthest
        }
    }

    /// Whether some region starts at or before `range` and ends at or after it.
    func encloses(_ range: SourceRange) -> Bool {
        // The number of regions starting at or before the range.
        let low = starts.partitioningIndex { $0 > range.start.offset }
        return low > 0 && furthestEnds[low - 1] >= range.end.offset
    }
}

extension [EnclosingRegions] {
    /// Whether each of the region sets encloses `range`.
    func encloses(_ range: SourceRange) -> Bool { allSatisfy { $0.encloses(range) } }
}
