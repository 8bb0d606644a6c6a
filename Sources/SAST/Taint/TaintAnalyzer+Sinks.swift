import Foundation
import PythonSyntax
import Support
import Synchronization

/// Sources, sinks and sanitizers: pattern matches against the rule, and the flows reported.
extension TaintAnalyzer {
    /// Whether one of the rule's sanitizers matches `node`.
    func isSanitizer(_ node: SyntaxNode) -> Bool {
        let patterns = patterns.sanitizers
        // Most nodes have no candidate pattern: they are answered without the memo.
        guard patterns.hasCandidate(node, index.aliases) else { return false }
        if let known = sanitizerAnswers.answer(node) { return known }
        // A local: a closure that named `self` would copy the whole analyzer.
        let matcher = matcher
        let found =
            patterns.first(node, index.aliases) { entry -> Bool? in
                if PatternMatcher.cannotMatch(entry.tree, node) { return nil }
                var bindings = Bindings()
                return matcher.match(entry.tree, node, &bindings) ? true : nil
            } ?? false
        sanitizerAnswers.remember(found, for: node)
        return found
    }

    /// The first source pattern that matches `node`; none where the file's search found no source.
    func firstSource(_ node: SyntaxNode) -> TaintSource? {
        if let sourceStarts, sourceStarts.isEmpty || !sourceStarts.contains(node.range.start.offset) { return nil }
        guard patterns.sources.hasCandidate(node, index.aliases) else { return nil }
        if let known = sourceAnswers.answer(node) { return known }
        let matcher = matcher
        let insideRanges = insideRanges
        let index = index
        let found = patterns.sources.first(node, index.aliases) { entry -> TaintSource? in
            if PatternMatcher.cannotMatch(entry.tree, node) { return nil }
            var bindings = Bindings()
            guard matcher.match(entry.tree, node, &bindings) else { return nil }
            if let inside = entry.value.inside, !insideRanges.contains(node.range, bindings, inside: inside, index: index) {
                return nil
            }
            return entry.value
        }
        sourceAnswers.remember(found, for: node)
        return found
    }

    /// The sinks `node` is, each with its bindings and the parts whose taint it checks.
    private func sinkSites(_ node: SyntaxNode) -> [SinkSite] {
        guard patterns.sinks.hasCandidate(node, index.aliases) else { return [] }
        if let known = sinkAnswers.answer(node) { return known }
        var matched: [(KindIndex<TaintSink>.Entry, Bindings)] = []
        let matcher = matcher
        _ = patterns.sinks.first(node, index.aliases) { entry -> Bool? in
            if PatternMatcher.cannotMatch(entry.tree, node) { return nil }
            var bindings = Bindings()
            if matcher.match(entry.tree, node, &bindings) { matched.append((entry, bindings)) }
            return nil
        }
        var sites: [SinkSite] = []
        for (entry, bindings) in matched {
            let sink = entry.value
            if sink.excluded.contains(where: { pattern in
                var ignored = Bindings()
                return matcher.match(pattern.tree, node, &ignored)
            }) {
                continue
            }
            if let inside = sink.inside,
                !insideRanges.contains(node.range, bindings, inside: inside, index: index, ownReturn: node.kind == .return)
            {
                continue
            }
            if sink.notInside.contains(where: { insideRanges.contains(node.range, bindings, inside: $0, index: index) }) {
                continue
            }
            if !sink.conditions.isEmpty, !PatternSearch(index: index).satisfies(sink.conditions, bindings) { continue }
            let parts: [SyntaxNode]
            if let focus = sink.focus {
                parts = bindings[focus]?.nodes ?? []
            } else if node.kind == .call {
                parts = Array(node.children.dropFirst())
            } else {
                parts = node.children
            }
            // Identity by evidence: without it the sink may be another library's method of the same
            // name (a query builder's `find`), so its flows are low confidence.
            let evidenced = sink.evidence.isEmpty || PatternSearch(index: index).satisfies(sink.evidence, bindings)
            var site = SinkSite(bindings: bindings, parts: parts, lacksEvidence: !evidenced)
            if sink.focus != nil, let first = parts.first, let last = parts.last {
                site.focusRange = SourceRange(start: first.range.start, end: last.range.end)
            }
            sites.append(site)
        }
        sinkAnswers.remember(sites, for: node)
        return sites
    }

    /// Reports (or, in a summary, records) every sink `node` is whose checked part is tainted.
    mutating func checkSinks(_ node: SyntaxNode) {
        if peeking || patterns.sinks.isEmpty { return }
        for site in sinkSites(node) {
            // Peek without side effects: the real evaluation follows in the caller.
            var taint = Taint.clean
            for part in site.parts { taint.formUnion(peekValue(part).whole) }
            guard taint.isTainted else { continue }
            let label = Self.sinkLabel(node, index)
            var hit = TaintSinkHit(range: node.range, label: label, bindings: site.bindings, lacksEvidence: site.lacksEvidence)
            hit.focusRange = site.focusRange
            reach(hit, with: taint.through(FlowHop(range: node.range, note: "sink: " + label)), via: nil, at: node.range)
        }
    }

    /// The value of `e` without reporting the sinks inside it or changing the state.
    mutating func peekValue(_ e: SyntaxNode) -> AbstractValue {
        let saved = state
        let savedReachable = reachable
        let wasPeeking = peeking
        peeking = true
        let value = evaluate(e)
        peeking = wasPeeking
        state = saved
        reachable = savedReachable
        return value
    }

    /// A tainted value arrives at a sink: a flow from a source is reported; from a parameter it
    /// goes into the summary. `range` is where to report (the call into another module's helper).
    mutating func reach(_ hit: TaintSinkHit, with taint: Taint, via: String?, at range: SourceRange) {
        if peeking { return }
        for origin in taint.origins {
            if let parameter = origin.parameter {
                let path = ParameterPath(parameter: parameter, field: origin.field)
                if currentSinks[path] == nil { currentSinks[path] = SummarySink(hit: hit, hops: origin.hops) }
            } else if reporting {
                flows.append(TaintFlow(sink: hit, origin: origin, via: via, reportRange: hit.file == nil ? hit.range : range))
            }
        }
    }
}

/// A sink a node is: the metavariables its pattern bound, and the parts whose taint it checks.
struct SinkSite {
    var bindings: Bindings
    var parts: [SyntaxNode]
    /// The sink's `evidence:` does not hold here (its flows are low confidence).
    var lacksEvidence = false
    /// The nodes the sink's `focus` names, as one region (nil: no focus).
    var focusRange: SourceRange? = nil
}

/// What a list of patterns says about each node of a file (the sinks it is, whether it is a
/// sanitizer, which source), found once per node: the analyses visit a node many times (summary
/// rounds, both passes of a loop, peeks, the reporting pass, the rules that share the list), and
/// the answer depends on the node alone. Asked only about nodes some pattern could match. Used
/// by the one thread scanning the file.
final class NodeAnswers<Value> {
    private var table: [Int: [(SyntaxNode, Value)]] = [:]

    /// Start and kind: nodes that share both (`a.b` in `a.b.c`) are told apart by `==`.
    private static func key(_ node: SyntaxNode) -> Int { node.range.start.offset &<< 7 | node.kind.ordinal }

    /// What is known of `node` (for an optional `Value`, `.some(nil)` is a known "none").
    func answer(_ node: SyntaxNode) -> Value? {
        guard let entries = table[Self.key(node)] else { return nil }
        for (known, value) in entries where known == node { return value }
        return nil
    }

    func remember(_ value: Value, for node: SyntaxNode) {
        table[Self.key(node), default: []].append((node, value))
    }
}

/// Per-file memo of where a sink's `pattern-inside` matches, and of the file's functions.
final class InsideRanges: Sendable {
    /// A pattern's matches, with their ranges nested for the question "which hold this sink".
    private struct Matches: Sendable {
        var found: [PatternMatch]
        var nesting: NestedRanges
    }

    /// By the pattern's text as bytes (``ExactText``) and then its tree: one file's rules share
    /// this memo, and the same text read in another syntax is another pattern.
    private let matches = Mutex<[ExactText: [(tree: SyntaxNode, matches: Matches)]]>([:])
    /// The ranges of the file's functions (definitions and lambdas), nested; built at the first `return` asked.
    private let functions = Mutex<(ranges: [SourceRange], nesting: NestedRanges)?>(nil)

    /// Whether `range` lies inside a match of `pattern` whose metavariables agree with the sink's
    /// (`$C.get($URL)` inside `with Session() as $C:` is the same `$C`).
    /// `ownReturn`: `range` is a `return`, which answers the function it is written in: inside a
    /// match that is a function (a view), a return of a function nested in it (a helper, a
    /// callback) does not count (issue 55: a view's inner helper returning a list was an "HTML
    /// response").
    /// Only the matches and functions around `range` are read: each sink of a file of N functions
    /// reading all of them cost N² (issue 76 H13).
    func contains(
        _ range: SourceRange, _ bindings: Bindings, inside pattern: CompiledPattern, index: FileIndex, ownReturn: Bool = false
    ) -> Bool {
        let key = ExactText(pattern.source)
        let known = matches.withLock { $0[key]?.first { $0.tree == pattern.tree }?.matches }
        // Searched outside the mutex: the search reads the index, never this memo.
        let memo: Matches
        if let known {
            memo = known
        } else {
            // Through the compiled pattern, unsearched where the file lacks an identifier or
            // string every match needs (a NestJS `@Param` handler's shape in a file without one).
            let found = PatternSearch(index: index).matches(pattern)
            memo = Matches(found: found, nesting: NestedRanges(found.map(\.range)))
            matches.withLock { $0[key, default: []].append((pattern.tree, memo)) }
        }
        let nested = ownReturn ? functionsHolding(range, index: index) : []
        return memo.nesting.enclosing(range).contains { position in
            let match = memo.found[position]
            // No function between the match (the view itself) and the return.
            if nested.contains(where: { function in
                PatternSearch.contains(match.range, function)
                    && (function.start.offset, function.end.offset) != (match.range.start.offset, match.range.end.offset)
            }) {
                return false
            }
            for (name, binding) in match.bindings {
                if let other = bindings[name], !binding.agrees(with: other) { return false }
            }
            return true
        }
    }

    /// The ranges of the functions `range` is written in.
    private func functionsHolding(_ range: SourceRange, index: FileIndex) -> [SourceRange] {
        let table =
            functions.withLock { $0 }
            ?? {
                let ranges = (index.nodes(of: .functionDef) + index.nodes(of: .asyncFunctionDef) + index.nodes(of: .lambda)).map(\.range)
                let built = (ranges: ranges, nesting: NestedRanges(ranges))
                functions.withLock { $0 = built }
                return built
            }()
        return table.nesting.enclosing(range).map { table.ranges[$0] }
    }
}
