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
    /// Every node, for patterns that are a bare metavariable.
    private(set) var all: [PyNode] = []

    init(root: PyNode, source: SourceText) {
        self.root = root
        self.source = source
        self.aliases = ImportAliases(root: root)
        var byKind: [PyNodeKind: [PyNode]] = [:]
        var calls: [String: [PyNode]] = [:]
        var blocks: [PyNode] = []
        var identifiers: Set<String> = []
        var all: [PyNode] = []
        let aliases = self.aliases
        root.walk { node in
            all.append(node)
            byKind[node.kind, default: []].append(node)
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
        self.all = all
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

    /// Nodes a single-node pattern could match.
    func candidates(for pattern: PyNode) -> [PyNode] {
        switch pattern.kind {
        case .call:
            if let key = PatternIndexKey.callName(pattern) { return callsByName[key] ?? [] }
            return byKind[.call] ?? []
        case .name:
            if pattern.text?.hasPrefix("$") == true { return all }
            return (byKind[.name] ?? []) + (byKind[.attribute] ?? [])
        case .attribute:
            return (byKind[.attribute] ?? []) + (byKind[.name] ?? [])
        case .ellipsis:
            return all
        case .exprStmt where PatternMatcher.isWildcard(pattern) || pattern.children.first?.kind == .name:
            return all
        default:
            return byKind[pattern.kind] ?? []
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

    /// One identifier every match of `pattern` must contain, or nil when none is certain.
    static func requiredIdentifier(_ pattern: PyNode) -> String? {
        if let name = callName(pattern) { return name }
        var found: String?
        pattern.walk { node in
            if found != nil { return false }
            if node.kind == .name || node.kind == .attribute, let text = node.text, !text.hasPrefix("$") {
                found = text
                return false
            }
            // Only the spine of expressions is certain; alternatives inside are not.
            return node.kind != .boolOp && node.kind != .ifExp
        }
        return found
    }
}
