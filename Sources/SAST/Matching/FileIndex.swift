/// One pass over a parsed file that lets each rule look only at the nodes it could match: nodes
/// by kind, calls by the last segment of their (import-resolved) callee, and every identifier.
struct FileIndex: Sendable {
    let root: PyNode
    let source: SourceText
    let aliases: ImportAliases
    private(set) var byKind: [PyNodeKind: [PyNode]] = [:]
    private(set) var callsByName: [String: [PyNode]] = [:]
    /// Statement lists (module and blocks), for multi-statement patterns.
    private(set) var blocks: [PyNode] = []
    /// Every identifier, attribute name and imported module segment in the file.
    private(set) var identifiers: Set<String> = []

    init(root: PyNode, source: SourceText) {
        self.root = root
        self.source = source
        self.aliases = ImportAliases(root: root)
        var byKind: [PyNodeKind: [PyNode]] = [:]
        var calls: [String: [PyNode]] = [:]
        var blocks: [PyNode] = []
        var identifiers: Set<String> = []
        let aliases = self.aliases
        root.walk { node in
            if !FileIndex.unindexedKinds.contains(node.kind) { byKind[node.kind, default: []].append(node) }
            switch node.kind {
            case .module, .block:
                blocks.append(node)
            case .name, .attribute, .keyword:
                if let text = node.text { identifiers.insert(text) }
            case .alias, .importFrom:
                if let text = node.text {
                    for part in text.split(separator: ".") { identifiers.insert(String(part)) }
                }
            case .call:
                if let callee = node.children.first {
                    for key in FileIndex.callKeys(callee, aliases) { calls[key, default: []].append(node) }
                }
            default:
                break
            }
            return true
        }
        self.byKind = byKind
        self.callsByName = calls
        self.blocks = blocks
        self.identifiers = identifiers
    }

    /// The last segment of a callee, before and after import resolution (`sp.call` → `call`;
    /// `s` bound by `from os import system as s` → `s`, `system`).
    static func callKeys(_ callee: PyNode, _ aliases: ImportAliases) -> [String] {
        switch callee.kind {
        case .attribute:
            return callee.text.map { [$0] } ?? []
        case .name:
            guard let text = callee.text else { return [] }
            if let full = aliases.resolve(text), let last = full.split(separator: ".").last, last != text {
                return [text, String(last)]
            }
            return [text]
        default:
            return []
        }
    }

    /// The most numerous kinds, which patterns rarely start with: found by walking when needed.
    static let unindexedKinds: Set<PyNodeKind> = [
        .name, .string, .integer, .float, .true, .false, .none, .keyword, .parameter, .empty, .block,
        .decorators, .typeParams, .parameters, .formattedValue, .alias,
    ]

    /// Nodes of `kind`, from the index or by walking the tree for the kinds it leaves out.
    func nodes(of kind: PyNodeKind) -> [PyNode] {
        if !Self.unindexedKinds.contains(kind) { return byKind[kind] ?? [] }
        var out: [PyNode] = []
        root.walk { node in
            if node.kind == kind { out.append(node) }
            return true
        }
        return out
    }

    /// Every node; only patterns that are a bare metavariable need this, so it is not kept.
    var all: [PyNode] { root.preorder }

    /// Nodes a single-node pattern could match.
    func candidates(for pattern: PyNode) -> [PyNode] {
        switch pattern.kind {
        case .call:
            if let key = PatternIndexKey.callName(pattern) { return callsByName[key] ?? [] }
            return byKind[.call] ?? []
        case .name:
            if pattern.text?.hasPrefix("$") == true { return all }
            return nodes(of: .name) + nodes(of: .attribute)
        case .attribute:
            // A name can match an attribute pattern only through an import alias.
            let names = aliases.isEmpty ? [] : nodes(of: .name).filter { $0.text.map { aliases.resolve($0) != nil } ?? false }
            return nodes(of: .attribute) + names
        case .ellipsis:
            return all
        case .exprStmt where PatternMatcher.isWildcard(pattern) || pattern.children.first?.kind == .name:
            return all
        default:
            return nodes(of: pattern.kind)
        }
    }
}

/// What a pattern needs to be present in a file before it is worth trying.
enum PatternIndexKey {
    /// The concrete last segment of a call pattern's callee (`subprocess.$F(...)` has none).
    static func callName(_ pattern: PyNode) -> String? {
        guard pattern.kind == .call, let callee = pattern.children.first, let text = callee.text,
            callee.kind == .name || callee.kind == .attribute, !text.hasPrefix("$")
        else { return nil }
        return text
    }

    /// Identifiers every match of `pattern` must contain (names, attribute names and keywords
    /// outside metavariables); a file lacking any of them cannot match.
    static func requiredIdentifiers(_ pattern: PyNode) -> Set<String> {
        var found: Set<String> = []
        pattern.walk { node in
            switch node.kind {
            case .name, .attribute, .keyword:
                if let text = node.text, !text.hasPrefix("$") { found.insert(text) }
                return true
            case .boolOp, .ifExp:
                // Only the spine of expressions is certain; alternatives inside are not.
                return false
            default:
                return true
            }
        }
        return found
    }
}

/// Which files a rule can skip: the rule needs one of `alternatives`, each a set of identifiers
/// the file must all contain. No alternatives means "cannot tell; always run".
struct IdentifierRequirement: Sendable {
    var alternatives: [Set<String>]?

    static let always = IdentifierRequirement(alternatives: nil)

    init(alternatives: [Set<String>]?) { self.alternatives = alternatives }

    init(patterns: [PyNode]) {
        var out: [Set<String>] = []
        for tree in patterns {
            let ids = PatternIndexKey.requiredIdentifiers(tree)
            if ids.isEmpty {
                alternatives = nil
                return
            }
            out.append(ids)
        }
        alternatives = out
    }

    func isSatisfied(by identifiers: Set<String>) -> Bool {
        guard let alternatives else { return true }
        return alternatives.contains { $0.isSubset(of: identifiers) }
    }
}
