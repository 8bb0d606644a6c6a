import Foundation
import PythonSyntax

/// Sources, sinks and sanitizers: pattern matches against the rule, and the flows reported.
extension TaintAnalyzer {
    /// Whether one of `patterns` matches `node`.
    func matchesAny(_ patterns: KindIndex<CompiledPattern>, _ node: PyNode) -> Bool {
        // A local: a closure that named `self` would copy the whole analyzer.
        let matcher = matcher
        return patterns.first(node, index.aliases) { tree, _ -> Bool? in
            var bindings = Bindings()
            return matcher.match(tree, node, &bindings) ? true : nil
        } ?? false
    }

    /// The first source pattern that matches `node`; none where the file's search found no source.
    func firstSource(_ node: PyNode) -> TaintSource? {
        if let sourceStarts, !sourceStarts.contains(node.range.start.offset) { return nil }
        let matcher = matcher
        let insideRanges = insideRanges
        let index = index
        return patterns.sources.first(node, index.aliases) { tree, source in
            var bindings = Bindings()
            guard matcher.match(tree, node, &bindings) else { return nil }
            if let inside = source.inside, !insideRanges.contains(node.range, bindings, inside: inside, index: index) { return nil }
            return source
        }
    }

    /// Reports (or, in a summary, records) every sink `node` is whose checked part is tainted.
    mutating func checkSinks(_ node: PyNode) {
        if peeking || patterns.sinks.isEmpty { return }
        var matched: [(TaintSink, Bindings)] = []
        let matcher = matcher
        _ = patterns.sinks.first(node, index.aliases) { tree, sink -> Bool? in
            var bindings = Bindings()
            if matcher.match(tree, node, &bindings) { matched.append((sink, bindings)) }
            return nil
        }
        for (sink, bindings) in matched {
            if sink.excluded.contains(where: { pattern in
                var ignored = Bindings()
                return matcher.match(pattern.tree, node, &ignored)
            }) {
                continue
            }
            if let inside = sink.inside, !insideRanges.contains(node.range, bindings, inside: inside, index: index) { continue }
            if !sink.conditions.isEmpty, !PatternSearch(index: index).satisfies(sink.conditions, bindings) { continue }
            let parts: [PyNode]
            if let focus = sink.focus {
                parts = bindings[focus]?.nodes ?? []
            } else if node.kind == .call {
                parts = Array(node.children.dropFirst())
            } else {
                parts = node.children
            }
            // Peek without side effects: the real evaluation follows in the caller.
            var taint = Taint.clean
            for part in parts { taint.formUnion(peekValue(part).whole) }
            guard taint.isTainted else { continue }
            let label = Self.sinkLabel(node, index)
            let hit = TaintSinkHit(range: node.range, label: label, bindings: bindings)
            reach(hit, with: taint.through(FlowHop(range: node.range, note: "sink: " + label)), via: nil, at: node.range)
        }
    }

    /// The value of `e` without reporting the sinks inside it or changing the state.
    mutating func peekValue(_ e: PyNode) -> AbstractValue {
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

/// Per-file memo of where a sink's `pattern-inside` matches.
final class InsideRanges: @unchecked Sendable {
    private var matches: [String: [PatternMatch]] = [:]
    private let lock = NSLock()

    /// Whether `range` lies inside a match of `pattern` whose metavariables agree with the sink's
    /// (`$C.get($URL)` inside `with Session() as $C:` is the same `$C`).
    func contains(_ range: SourceRange, _ bindings: Bindings, inside pattern: CompiledPattern, index: FileIndex) -> Bool {
        lock.lock()
        let known = matches[pattern.source]
        lock.unlock()
        let found = known ?? PatternSearch(index: index).matches(pattern.tree)
        if known == nil {
            lock.lock()
            matches[pattern.source] = found
            lock.unlock()
        }
        return found.contains { match in
            guard PatternSearch.contains(match.range, range) else { return false }
            for (name, binding) in match.bindings {
                if let other = bindings[name], !binding.agrees(with: other) { return false }
            }
            return true
        }
    }
}
