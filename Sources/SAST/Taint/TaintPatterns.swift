import Findings
import Foundation
import Support
import Synchronization
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
    /// Whether the rule-free analysis applies a sanitizer this rule does not have.
    let lacksSharedSanitizers: Bool
    /// No sources or sinks, only the shared sanitizers (`sharedSanitizers`): what a function does
    /// with its parameters, for any rule that has those sanitizers.
    static func ruleFree(sharedSanitizers: [CompiledPattern]) -> TaintPatterns {
        TaintPatterns(TaintSpec(sources: [], sinks: [], sanitizers: sharedSanitizers))
    }

    /// The sanitizers (by pattern text) that more than half of `specs` have, in first-seen order:
    /// the rule-free analysis applies them. Type coercions (`int(...)`) clean most injections
    /// but not weak randomness, so an intersection over every rule would be empty and every
    /// `int()` call would make its function rule-specific for a dozen rules. A rule that lacks
    /// one of them treats the functions that mention it as its own (``RelevanceNames``).
    static func sharedSanitizers(_ specs: [TaintSpec]) -> [CompiledPattern] {
        var byText: [String: CompiledPattern] = [:]
        for spec in specs {
            for sanitizer in spec.sanitizers where byText[sanitizer.source] == nil { byText[sanitizer.source] = sanitizer }
        }
        return sharedSanitizerTexts(specs.map { $0.sanitizers.map(\.source) }).compactMap { byText[$0] }
    }

    /// ``sharedSanitizers(_:)`` by pattern text: of the rules' sanitizer lists (in rule order),
    /// the texts more than half of them have, in first-seen order.
    static func sharedSanitizerTexts(_ lists: [[String]]) -> [String] {
        var count: [String: Int] = [:]
        var order: [String] = []
        var seen: Set<String> = []
        for list in lists {
            for text in Set(list) { count[text, default: 0] += 1 }
            for text in list where seen.insert(text).inserted { order.append(text) }
        }
        return order.filter { (count[$0] ?? 0) * 2 > lists.count }
    }

    /// Whether the rule is about file paths: a prefix check on a normalised path confines it.
    let isPathRule: Bool
    /// Whether the rule is about request targets (SSRF): an allow-listed host confines the URL.
    let isRequestRule: Bool
    /// Whether the rule is about redirect targets (open redirect): only the start of a URL decides
    /// where a browser goes, so text appended after a part that fixes the destination is harmless.
    let isRedirectRule: Bool

    /// `sharedSanitizers`: those of the rule-free analysis (``sharedSanitizers(_:)``).
    init(_ spec: TaintSpec, cwe: [Int] = [], sharedSanitizers: [CompiledPattern] = []) {
        sanitizers = KindIndex(spec.sanitizers) { $0.tree }
        sinks = KindIndex(spec.sinks) { $0.pattern.tree }
        sourcePatterns = spec.sources.map(\.pattern)
        sourceInsides = spec.sources.map(\.inside)
        // By pattern and `pattern-inside` (and kind): two `$X` sources inside different
        // functions do not share their offsets.
        sourceKeys = spec.sources.map { SourceMatchCache.key(of: $0) }
        sourceListKey = SourceMatchCache.key(of: sourceKeys)
        sanitizerListKey = SourceMatchCache.key(of: spec.sanitizers.map { SourceMatchCache.key(of: $0) })
        let shared = SourceParts.of(spec.sources, key: sourceListKey)
        sources = shared.index
        sourceNames = shared.names
        // A sink with `pattern-inside` needs the identifiers of both (`$C.get` alone is everywhere).
        var sinkSets: [Set<String>]? = []
        for sink in spec.sinks {
            // Assignments to a secret's name are found by the name (``SharedSummaries/assigns(to:)``).
            if sink.targetRegex != nil { continue }
            var ids = sink.pattern.requiredIdentifiers
            if let inside = sink.inside { ids.formUnion(inside.requiredIdentifiers) }
            ids.formUnion(sink.valueIdentifiers)
            if ids.isEmpty {
                sinkSets = nil
                break
            }
            sinkSets?.append(ids)
        }
        sinkNames = IdentifierRequirement(alternatives: sinkSets)
        // Where the rule and the rule-free analysis treat sanitizers differently: its own, and
        // the shared ones it lacks. A module mentioning neither publishes the rule-free summary.
        let sharedTexts = Set(sharedSanitizers.map(\.source))
        let own = spec.sanitizers.filter { !sharedTexts.contains($0.source) }
        let lacked = sharedSanitizers.filter { sanitizer in !spec.sanitizers.contains { $0.source == sanitizer.source } }
        sanitizerNames = IdentifierRequirement(compiled: own + lacked)
        lacksSharedSanitizers = !lacked.isEmpty
        isPathRule = !Set(cwe).isDisjoint(with: [22, 23, 36, 73])
        isRequestRule = cwe.contains(918)
        isRedirectRule = cwe.contains(601)
        relevance = RelevanceNames(
            spec, isPathRule: isPathRule, isRequestRule: isRequestRule, isRedirectRule: isRedirectRule, ownSanitizers: own,
            lackedSanitizers: lacked)
    }

    /// The source patterns, for finding where sources occur before analysing.
    let sourcePatterns: [CompiledPattern]
    /// Each source's `pattern-inside`, by the same position: a source occurs only within its matches.
    let sourceInsides: [CompiledPattern?]
    /// Their keys in ``SourceMatchCache``, by pattern, `pattern-inside` and kind (rules that share
    /// a source share its matches).
    let sourceKeys: [Int]
    /// The key of the whole list in ``SourceMatchCache`` (most rules include the same sources),
    /// for its offsets and for sharing what it says about each node (``SourceMatchCache/answers(sources:)``).
    let sourceListKey: Int
    /// The key of the sanitizers, for sharing what they say about each node.
    let sanitizerListKey: Int
}

/// What a rule's patterns derive from its sources alone, built once per source list: most taint
/// rules of a language include the same source sets, and indexing them was a tenth of compiling
/// the rules (issue 77). Found by ``TaintPatterns/sourceListKey`` (which numbers a list by its
/// sources' texts, kinds and `pattern-inside` texts) and then by equal sources: the same text
/// may lower to another tree in another language. The rules' patterns come from one
/// ``PatternTrees``, whose trees for one text share their storage, so the check is cheap.
private final class SourceParts: Sendable {
    let sources: [TaintSource]
    let index: KindIndex<TaintSource>
    let names: IdentifierRequirement

    private init(_ sources: [TaintSource]) {
        self.sources = sources
        index = KindIndex(sources) { $0.pattern.tree }
        names = IdentifierRequirement(compiled: sources.map(\.pattern))
    }

    private static let built = Mutex<[Int: [SourceParts]]>([:])
    /// Source lists kept: the shipped rules have a few dozen; a process that loads rule sets of
    /// its own again and again (`rules test`, tests) starts afresh past this.
    static let maximumKept = 512

    /// The parts of `sources`, whose list key is `key`.
    static func of(_ sources: [TaintSource], key: Int) -> SourceParts {
        if let known = built.withLock({ $0[key] ?? [] }).first(where: { same($0.sources, sources) }) { return known }
        let parts = SourceParts(sources)
        built.withLock { table in
            if table.count >= maximumKept { table.removeAll() }
            table[key, default: []].append(parts)
        }
        return parts
    }

    /// Equal sources whose texts are also the same bytes (`==` on strings is canonical equivalence).
    private static func same(_ a: [TaintSource], _ b: [TaintSource]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { x, y in
                x == y && x.pattern.source.utf8.elementsEqual(y.pattern.source.utf8)
                    && (x.inside?.source.utf8).map { inside in y.inside.map { inside.elementsEqual($0.source.utf8) } ?? false }
                        ?? (y.inside == nil)
            }
    }
}

/// Values keyed by what their pattern's root needs: a call's callee name, an attribute's or name's
/// text, or else the node kind. Looking a node up costs a hash or two instead of one match attempt
/// per pattern, which matters because the taint analysis asks at every node.
/// A class: the analysis asks one at every node, and a struct of several tables would be copied
/// (a retain per table) at each ask.
final class KindIndex<Value: Sendable>: Sendable {
    /// A pattern's tree and its value, behind one reference: going through the candidates then
    /// copies a reference, not every field of the value (a sink holds a dozen).
    final class Entry: Sendable {
        let tree: SyntaxNode
        let value: Value

        init(_ tree: SyntaxNode, _ value: Value) {
            self.tree = tree
            self.value = value
        }
    }

    /// Patterns of calls with a concrete callee name, by that name.
    private let byCallee: [String: [Entry]]
    /// Patterns of a concrete name or attribute, by its text.
    private let byName: [String: [Entry]]
    private let byKind: [SyntaxKind: [Entry]]
    private let anyKind: [Entry]
    /// The keys of `byCallee` and `byName`, for rejecting most nodes without a lookup.
    private let callees: NameFilter
    private let names: NameFilter
    /// The kinds of `byKind`.
    private let kinds: KindBits
    let isEmpty: Bool

    init(_ values: [Value], tree: (Value) -> SyntaxNode) {
        var byCallee: [String: [Entry]] = [:]
        var byName: [String: [Entry]] = [:]
        var byKind: [SyntaxKind: [Entry]] = [:]
        var anyKind: [Entry] = []
        var callees = NameFilter()
        var names = NameFilter()
        var kinds = KindBits()
        isEmpty = values.isEmpty
        for value in values {
            let root = tree(value)
            let entry = Entry(root, value)
            if root.kind == .call, let callee = PatternIndexKey.callName(root) {
                byCallee[callee, default: []].append(entry)
                callees.insert(callee)
                continue
            }
            if root.kind == .name || root.kind == .attribute, let text = root.text, !text.hasPrefix("$") {
                byName[text, default: []].append(entry)
                names.insert(text)
                continue
            }
            switch root.kind {
            case .name where root.text?.hasPrefix("$") == true, .ellipsis:
                anyKind.append(entry)
            case .attribute:
                byKind[.name, default: []].append(entry)
                byKind[.attribute, default: []].append(entry)
            default:
                byKind[root.kind, default: []].append(entry)
            }
        }
        for kind in byKind.keys { kinds.insert(kind) }
        self.byCallee = byCallee
        self.byName = byName
        self.byKind = byKind
        self.anyKind = anyKind
        self.callees = callees
        self.names = names
        self.kinds = kinds
    }

    /// Calls `body` with each pattern that could match `node` (of its kind, of any kind, then by
    /// callee or name) until it returns a value, without building a list: the taint analysis asks
    /// at every node, and nearly always there is none.
    func first<R>(_ node: SyntaxNode, _ aliases: ImportAliases, _ body: (Entry) -> R?) -> R? {
        guard !isEmpty else { return nil }
        // Read once: `kind` is a call into another module.
        let kind = node.kind
        if kinds.contains(kind), let list = byKind[kind] {
            for candidate in list { if let found = body(candidate) { return found } }
        }
        for candidate in anyKind { if let found = body(candidate) { return found } }
        switch kind {
        case .call where !byCallee.isEmpty:
            guard let callee = node.children.first, let text = callee.text else { return nil }
            if callee.kind == .attribute {
                return callees.mayContain(text) ? Self.first(in: byCallee[text], body) : nil
            }
            guard callee.kind == .name else { return nil }
            if callees.mayContain(text), let found = Self.first(in: byCallee[text], body) { return found }
            // `s(...)` after `from os import system as s` also matches `os.system(...)`.
            if let full = aliases.resolve(text), case let last = FileIndex.lastSegment(full), last != text {
                return Self.first(in: byCallee[last], body)
            }
        case .attribute where !byName.isEmpty:
            if let text = node.text, names.mayContain(text) { return Self.first(in: byName[text], body) }
        case .name where !byName.isEmpty:
            guard let text = node.text else { return nil }
            if names.mayContain(text), let found = Self.first(in: byName[text], body) { return found }
            // `from flask import request` makes `request` match the pattern `flask.request`.
            if let full = aliases.resolve(text), case let last = FileIndex.lastSegment(full), last != text {
                return Self.first(in: byName[last], body)
            }
        default:
            break
        }
        return nil
    }

    /// Whether some pattern could match `node` (most nodes have none).
    func hasCandidate(_ node: SyntaxNode, _ aliases: ImportAliases) -> Bool {
        first(node, aliases) { _ in true } ?? false
    }

    private static func first<R>(in list: [Entry]?, _ body: (Entry) -> R?) -> R? {
        guard let list else { return nil }
        for candidate in list { if let found = body(candidate) { return found } }
        return nil
    }
}

/// A set of node kinds as bits (by ``SyntaxKind/ordinal``): a test without hashing.
struct KindBits: Sendable {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    mutating func insert(_ kind: SyntaxKind) {
        let ordinal = kind.ordinal
        if ordinal < 64 { low |= 1 << UInt64(ordinal) } else { high |= 1 << UInt64(ordinal - 64) }
    }

    @inline(__always) func contains(_ kind: SyntaxKind) -> Bool {
        let ordinal = kind.ordinal
        return ordinal < 64 ? low & (1 << UInt64(ordinal)) != 0 : high & (1 << UInt64(ordinal - 64)) != 0
    }
}

/// Per-file memo of source-pattern matches, keyed by the pattern text's number (``key(of:)``),
/// so the rules that share a source share its matches. One file is scanned by one thread, so it
/// is not `Sendable` (nor are the ``NodeAnswers`` it hands out) and needs no lock.
final class SourceMatchCache {
    /// By pattern number (small and dense): an array, not a dictionary, as every taint rule
    /// looks up each of its source patterns in every file.
    private var offsets: [[Int]?] = []

    /// What one number stands for: a pattern's text, or a source's pattern with what else
    /// decides its matches. Texts by bytes (``ExactText``): texts equal only canonically are
    /// other patterns. A structure rather than one text joined from the parts: building that
    /// string for every source of every rule was 1 % of a small scan.
    private enum Numbered: Hashable {
        case pattern(ExactText)
        case source(pattern: ExactText, inside: ExactText?, isLocal: Bool, isLibrary: Bool, requestPart: RequestPart?)
    }

    /// Pattern or source → number, process-wide (rules are loaded once; the table only grows).
    private static let numbers = Mutex<[Numbered: Int]>([:])

    /// The number of a pattern's text, the same for every rule that has it.
    static func key(of pattern: CompiledPattern) -> Int {
        number(of: .pattern(ExactText(pattern.source)))
    }

    private static func number(of key: Numbered) -> Int {
        numbers.withLock { table in
            if let known = table[key] { return known }
            table[key] = table.count
            return table.count - 1
        }
    }

    /// Whether any source pattern asked about matched.
    var foundAny: Bool {
        offsets.contains { $0?.isEmpty == false }
    }

    /// By source list (``TaintPatterns/sourceListKey``): the offsets of all its patterns.
    private var listOffsets: [Int: [Int]] = [:]

    /// By `pattern-inside` text: where its matches lie (metavariables aside).
    private var insides: [ExactText: OffsetRegions] = [:]

    /// The matches of sinks' `pattern-inside` patterns in the file, found once for all its rules:
    /// taint rules share many (a route handler's shape), and a rule searching the whole file for
    /// each of them again was half the time of a file of many callbacks (issue 77).
    let insideRanges = InsideRanges()

    /// The regions of the file `inside` matches, searched once per file.
    private func insideRegions(_ inside: CompiledPattern, in index: FileIndex) -> OffsetRegions {
        if let known = insides[ExactText(inside.source)] { return known }
        // Through the compiled pattern's file check: a statement run (`function $F(...) {...} ...
        // module.exports = $F`) in a file without `exports` is not tried from every statement.
        let found = OffsetRegions(PatternSearch(index: index).matches(inside).map { ($0.range.start.offset, $0.range.end.offset) })
        insides[ExactText(inside.source)] = found
        return found
    }

    /// What each list of sources (resp. sanitizers) says about the nodes of the file, by list key.
    private var sourceAnswers: [Int: NodeAnswers<TaintSource?>] = [:]
    private var sanitizerAnswers: [Int: NodeAnswers<Bool>] = [:]

    /// The answers of the sources whose list has key `sources` (``TaintPatterns/sourceListKey``).
    func answers(sources key: Int) -> NodeAnswers<TaintSource?> { answers(key, in: &sourceAnswers) }

    /// The answers of the sanitizers whose list has key `sanitizers` (``TaintPatterns/sanitizerListKey``).
    func answers(sanitizers key: Int) -> NodeAnswers<Bool> { answers(key, in: &sanitizerAnswers) }

    /// The answers of the list `key` in `table`, made on first use.
    private func answers<Value>(_ key: Int, in table: inout [Int: NodeAnswers<Value>]) -> NodeAnswers<Value> {
        if let known = table[key] { return known }
        let made = NodeAnswers<Value>()
        table[key] = made
        return made
    }

    /// The number of a source with what decides its matches besides the pattern: its kind and
    /// its `pattern-inside`.
    static func key(of source: TaintSource) -> Int {
        number(
            of: .source(
                pattern: ExactText(source.pattern.source), inside: source.inside.map { ExactText($0.source) },
                isLocal: source.isLocal, isLibrary: source.isLibrary, requestPart: source.requestPart))
    }

    /// Process-wide numbers of source lists, as ``numbers`` of pattern texts.
    private static let listNumbers = Mutex<[[Int]: Int]>([:])

    /// The number of a list of pattern numbers, the same for every rule that has it.
    static func key(of sourceKeys: [Int]) -> Int {
        listNumbers.withLock { table in
            if let known = table[sourceKeys] { return known }
            table[sourceKeys] = table.count
            return table.count - 1
        }
    }

    /// Where the source patterns of `patterns` match in the file.
    func offsets(of patterns: TaintPatterns, in index: FileIndex) -> [Int] {
        if let known = listOffsets[patterns.sourceListKey] { return known }
        var out: [Int] = []
        // By position, so no pattern (a tree and a set) is copied per lookup.
        for i in patterns.sourceKeys.indices {
            let key = patterns.sourceKeys[i]
            if key >= offsets.count { offsets += Array(repeating: nil, count: key + 1 - offsets.count) }
            if let known = offsets[key] {
                out += known
                continue
            }
            let required = patterns.sourcePatterns[i].requiredIdentifiers
            var found: [Int] = []
            // A source with `pattern-inside` occurs only within a match of it: `$X` inside a
            // decorated handler's parameters is not every expression of every file (which made
            // every file look as if it held a source, and every node a candidate; issue 77).
            let regions = required.isSubset(of: index.identifiers) ? patterns.sourceInsides[i].map { insideRegions($0, in: index) } : nil
            if required.isSubset(of: index.identifiers), regions?.isEmpty != true {
                found = PatternSearch(index: index).matches(patterns.sourcePatterns[i].tree).map(\.range.start.offset)
                if let regions { found = found.filter { regions.holds($0) } }
            }
            offsets[key] = found
            out += found
        }
        listOffsets[patterns.sourceListKey] = out
        return out
    }
}

/// Byte regions of a file as disjoint, sorted intervals: whether an offset lies in any of them is
/// a binary search, so filtering every match of a pattern by them stays linear-logarithmic.
struct OffsetRegions {
    /// `[start, end]`, sorted by start, none overlapping.
    private var merged: [(start: Int, end: Int)] = []

    init(_ regions: [(Int, Int)]) {
        for (start, end) in regions.sorted(by: { $0.0 < $1.0 }) {
            if let last = merged.last, start <= last.end {
                merged[merged.count - 1].end = max(last.end, end)
            } else {
                merged.append((start, end))
            }
        }
    }

    var isEmpty: Bool { merged.isEmpty }

    /// Whether `offset` lies in a region (its end included: a superset is what a prefilter may give).
    func holds(_ offset: Int) -> Bool {
        var low = 0
        var high = merged.count
        // The first region starting after `offset`; the one before it is the only candidate.
        while low < high {
            let middle = (low + high) / 2
            if merged[middle].start <= offset { low = middle + 1 } else { high = middle }
        }
        return low > 0 && offset <= merged[low - 1].end
    }
}
