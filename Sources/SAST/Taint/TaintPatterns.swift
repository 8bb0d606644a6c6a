/// A taint rule's patterns grouped by the node kinds they can match, built once per rule so the
/// analysis asks only the patterns that could apply to each node.
struct TaintPatterns: Sendable {
    let sources: KindIndex<CompiledPattern>
    let sanitizers: KindIndex<CompiledPattern>
    let sinks: KindIndex<TaintSink>
    /// Identifiers a file must contain for any source (resp. sink) to match; nil when unknown.
    let sourceNames: Set<String>?
    let sinkNames: Set<String>?

    init(_ spec: TaintSpec) {
        sources = KindIndex(spec.sources) { $0.tree }
        sanitizers = KindIndex(spec.sanitizers) { $0.tree }
        sinks = KindIndex(spec.sinks) { $0.pattern.tree }
        sourceNames = Self.names(spec.sources.map(\.tree))
        sinkNames = Self.names(spec.sinks.map(\.pattern.tree))
    }

    private static func names(_ trees: [PyNode]) -> Set<String>? {
        var out: Set<String> = []
        for tree in trees {
            guard let name = PatternIndexKey.requiredIdentifier(tree) else { return nil }
            out.insert(name)
        }
        return out
    }

    /// Whether the file could hold a flow at all.
    func applies(to identifiers: Set<String>) -> Bool {
        if let sourceNames, sourceNames.isDisjoint(with: identifiers) { return false }
        if let sinkNames, sinkNames.isDisjoint(with: identifiers) { return false }
        return true
    }
}

/// Values keyed by the kinds of node their pattern can match.
struct KindIndex<Value: Sendable>: Sendable {
    private var byKind: [PyNodeKind: [(PyNode, Value)]] = [:]
    private var anyKind: [(PyNode, Value)] = []
    let isEmpty: Bool

    init(_ values: [Value], tree: (Value) -> PyNode) {
        isEmpty = values.isEmpty
        for value in values {
            let root = tree(value)
            switch root.kind {
            case .name where root.text?.hasPrefix("$") == true, .ellipsis:
                anyKind.append((root, value))
            case .name, .attribute:
                byKind[.name, default: []].append((root, value))
                byKind[.attribute, default: []].append((root, value))
            default:
                byKind[root.kind, default: []].append((root, value))
            }
        }
    }

    /// Patterns that could match a node of `kind`.
    func candidates(_ kind: PyNodeKind) -> [(PyNode, Value)] {
        guard !isEmpty else { return [] }
        let specific = byKind[kind] ?? []
        return anyKind.isEmpty ? specific : specific + anyKind
    }
}
