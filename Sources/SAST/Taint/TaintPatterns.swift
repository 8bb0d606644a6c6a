import Foundation
import PythonSyntax

/// A taint rule's patterns grouped by the node kinds they can match, built once per rule so the
/// analysis asks only the patterns that could apply to each node.
struct TaintPatterns: Sendable {
    let sources: KindIndex<TaintSource>
    let sanitizers: KindIndex<CompiledPattern>
    let sinks: KindIndex<TaintSink>
    /// What a file must mention for any source (resp. sink) to match.
    let sourceNames: IdentifierRequirement
    /// (Sinks on a name a regex accepts are not in `sinkNames`: see ``RelevanceNames/targetSinks``.)
    let sinkNames: IdentifierRequirement
    /// What a function must mention for this rule to analyse it itself.
    let relevance: RelevanceNames
    let sanitizerNames: IdentifierRequirement
    /// No sources or sinks, only the sanitizers every rule has (`sharedSanitizers`): what a
    /// function does with its parameters, for any rule.
    static func ruleFree(sharedSanitizers: [CompiledPattern]) -> TaintPatterns {
        TaintPatterns(TaintSpec(sources: [], sinks: [], sanitizers: sharedSanitizers))
    }

    /// The sanitizers (by pattern text) that every one of `specs` has.
    static func sharedSanitizers(_ specs: [TaintSpec]) -> [CompiledPattern] {
        guard let first = specs.first else { return [] }
        var common = Set(first.sanitizers.map(\.source))
        for spec in specs.dropFirst() { common.formIntersection(spec.sanitizers.map(\.source)) }
        var seen = Set<String>()
        return first.sanitizers.filter { common.contains($0.source) && seen.insert($0.source).inserted }
    }

    /// Whether the rule is about file paths: a prefix check on a normalised path confines it.
    let isPathRule: Bool
    /// Whether the rule is about request targets (SSRF): an allow-listed host confines the URL.
    let isRequestRule: Bool

    init(_ spec: TaintSpec, cwe: [Int] = [], sharedSanitizers: Set<String> = []) {
        sources = KindIndex(spec.sources) { $0.pattern.tree }
        sanitizers = KindIndex(spec.sanitizers) { $0.tree }
        sinks = KindIndex(spec.sinks) { $0.pattern.tree }
        sourcePatterns = spec.sources.map(\.pattern)
        sourceNames = IdentifierRequirement(patterns: spec.sources.map(\.pattern.tree))
        // A sink with `pattern-inside` needs the identifiers of both (`$C.get` alone is everywhere).
        var sinkSets: [Set<String>]? = []
        for sink in spec.sinks {
            // Assignments to a secret's name are found by the name (``RuleRelevance/assigns(to:)``).
            if sink.targetRegex != nil { continue }
            var ids = PatternIndexKey.requiredIdentifiers(sink.pattern.tree)
            if let inside = sink.inside { ids.formUnion(PatternIndexKey.requiredIdentifiers(inside.tree)) }
            ids.formUnion(sink.valueIdentifiers)
            if ids.isEmpty {
                sinkSets = nil
                break
            }
            sinkSets?.append(ids)
        }
        sinkNames = IdentifierRequirement(alternatives: sinkSets)
        sanitizerNames = IdentifierRequirement(patterns: spec.sanitizers.map(\.tree))
        isPathRule = !Set(cwe).isDisjoint(with: [22, 23, 36, 73])
        isRequestRule = cwe.contains(918)
        relevance = RelevanceNames(
            spec, isPathRule: isPathRule, isRequestRule: isRequestRule, sharedSanitizers: sharedSanitizers)
    }

    /// The source patterns, for finding where sources occur before analysing.
    let sourcePatterns: [CompiledPattern]

    /// Whether the file could hold a flow at all.
    func applies(to identifiers: Set<String>) -> Bool {
        sourceNames.isSatisfied(by: identifiers) && mayHoldSink(identifiers)
    }

    /// Whether a file with `identifiers` may hold a sink (one on a secret's name always may).
    func mayHoldSink(_ identifiers: Set<String>) -> Bool {
        !relevance.targetSinks.isEmpty || sinkNames.isSatisfied(by: identifiers)
    }
}

/// Values keyed by what their pattern's root needs: a call's callee name, an attribute's or name's
/// text, or else the node kind. Looking a node up costs a hash or two instead of one match attempt
/// per pattern, which matters because the taint analysis asks at every node.
struct KindIndex<Value: Sendable>: Sendable {
    private var byKey: [String: [(PyNode, Value)]] = [:]
    private var byKind: [PyNodeKind: [(PyNode, Value)]] = [:]
    private var anyKind: [(PyNode, Value)] = []
    let isEmpty: Bool

    init(_ values: [Value], tree: (Value) -> PyNode) {
        isEmpty = values.isEmpty
        for value in values {
            let root = tree(value)
            if let key = Self.patternKey(root) {
                byKey[key, default: []].append((root, value))
                continue
            }
            switch root.kind {
            case .name where root.text?.hasPrefix("$") == true, .ellipsis:
                anyKind.append((root, value))
            case .attribute:
                byKind[.name, default: []].append((root, value))
                byKind[.attribute, default: []].append((root, value))
            default:
                byKind[root.kind, default: []].append((root, value))
            }
        }
    }

    /// `c:NAME` for a call with a concrete callee name, `n:NAME` for a concrete name or attribute.
    private static func patternKey(_ root: PyNode) -> String? {
        switch root.kind {
        case .call: return PatternIndexKey.callName(root).map { "c:" + $0 }
        case .name, .attribute:
            guard let text = root.text, !text.hasPrefix("$") else { return nil }
            return "n:" + text
        default: return nil
        }
    }

    /// Patterns that could match `node`.
    func candidates(_ node: PyNode, _ aliases: ImportAliases) -> [(PyNode, Value)] {
        guard !isEmpty else { return [] }
        var out = byKind[node.kind] ?? []
        if !anyKind.isEmpty { out += anyKind }
        guard !byKey.isEmpty else { return out }
        switch node.kind {
        case .call:
            if let callee = node.children.first {
                for key in FileIndex.callKeys(callee, aliases) { out += byKey["c:" + key] ?? [] }
            }
        case .attribute:
            if let text = node.text { out += byKey["n:" + text] ?? [] }
        case .name:
            if let text = node.text {
                out += byKey["n:" + text] ?? []
                // `from flask import request` makes `request` match the pattern `flask.request`.
                if let full = aliases.resolve(text), let last = full.split(separator: ".").last, last != text {
                    out += byKey["n:" + last] ?? []
                }
            }
        default:
            break
        }
        return out
    }
}

/// Per-file memo of source-pattern matches, keyed by the pattern text. One file is scanned by one
/// thread; the lock only keeps the type honest about `Sendable`.
final class SourceMatchCache: @unchecked Sendable {
    private var offsets: [String: [Int]] = [:]
    private let lock = NSLock()

    /// Whether any source pattern asked about matched.
    var foundAny: Bool {
        lock.lock()
        defer { lock.unlock() }
        return offsets.values.contains { !$0.isEmpty }
    }

    func offsets(of pattern: CompiledPattern, in index: FileIndex) -> [Int] {
        lock.lock()
        if let known = offsets[pattern.source] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let found =
            pattern.requiredIdentifiers.isSubset(of: index.identifiers)
            ? PatternSearch(index: index).matches(pattern.tree).map(\.range.start.offset) : []
        lock.lock()
        offsets[pattern.source] = found
        lock.unlock()
        return found
    }
}
