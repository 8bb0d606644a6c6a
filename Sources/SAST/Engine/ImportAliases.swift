import PythonSyntax
/// Local names bound by imports, mapped to the dotted names they stand for, so that
/// `import subprocess as sp; sp.call()` matches the pattern `subprocess.call(...)`.
struct ImportAliases: Sendable {
    /// `sp` → `subprocess`, `system` → `os.system`; names bound to themselves are left out.
    private(set) var canonical: [String: String] = [:]
    /// The local names, for rejecting most names without a lookup.
    private var locals = NameFilter()
    /// `canonical`'s dotted names split at their dots, once: the analyses expand the same few
    /// aliases at every use.
    private var segments: [String: [String]] = [:]

    init() {}

    /// JavaScript's names of the global object (`globalThis.eval` is `eval`), those the file does
    /// not bind itself.
    private var globalObjects: Set<String> = []

    /// Collects every import of `root` (nested ones included: a late import still names the module).
    /// For JavaScript (`javaScript`) also the values that stand for another name
    /// (``JavaScriptValueAliases``): `const run = cp.exec`, `const e = eval`, `globalThis.eval`.
    init(root: SyntaxNode, javaScript: Bool = false) {
        var imported = Set<String>()
        root.walk { node in
            switch node.kind {
            case .import:
                for alias in node.children {
                    guard let dotted = alias.text, let local = alias.children.first?.text else { continue }
                    imported.insert(local)
                    if local != dotted { canonical[local] = dotted }
                }
            case .importFrom:
                guard let module = node.text, !module.hasPrefix(".") else { return false }
                for alias in node.children {
                    guard let name = alias.text, name != "*" else { continue }
                    imported.insert(alias.children.first?.text ?? name)
                    canonical[alias.children.first?.text ?? name] = module + "." + name
                }
            case .functionDef, .asyncFunctionDef, .classDef, .module, .block, .if, .try, .tryStar, .with,
                .asyncWith, .exceptHandler, .for, .while:
                return true
            default:
                return false
            }
            return false
        }
        if javaScript {
            let values = JavaScriptValueAliases(root: root)
            globalObjects = values.globalObjects
            for (local, dotted) in values.aliases(through: canonical, imported: imported) where canonical[local] == nil {
                canonical[local] = dotted
            }
        }
        locals = NameFilter(canonical.keys)
        segments = canonical.mapValues { $0.split(separator: ".").map(String.init) }
    }

    /// Whether the file imports nothing under another name.
    var isEmpty: Bool { canonical.isEmpty && globalObjects.isEmpty }

    /// The dotted name `name` stands for, when an import bound it to something else.
    func resolve(_ name: String) -> String? { locals.mayContain(name) ? canonical[name] : nil }

    /// The segments of the dotted name `name` stands for (``resolve(_:)``), split once.
    func resolvedSegments(_ name: String) -> [String]? { locals.mayContain(name) ? segments[name] : nil }

    /// The canonical spelling of a dotted name (`sp.call` → `subprocess.call`).
    func canonicalize(_ dotted: String) -> String {
        // By bytes, not characters: the analyses canonicalise every callee they visit. (In a
        // dotted name a `.` is a character of its own: an identifier never starts with a mark.)
        guard let dot = dotted.utf8.firstIndex(of: UInt8(ascii: ".")) else { return resolve(dotted) ?? dotted }
        let head = String(dotted[..<dot])
        if !globalObjects.isEmpty, globalObjects.contains(head) { return canonicalize(String(dotted[dotted.index(after: dot)...])) }
        guard let target = resolve(head) else { return dotted }
        return target + dotted[dot...]
    }

    /// A name or attribute chain rebuilt over the canonical module path, carrying the original
    /// ranges; nil when the chain's root is not an alias.
    func expand(_ node: SyntaxNode) -> SyntaxNode? {
        // Cheap refusal first: most chains are not rooted at an alias.
        if isEmpty { return nil }
        var root = node
        while root.kind == .attribute, let base = root.children.first { root = base }
        guard root.kind == .name, let text = root.text else { return nil }
        if !globalObjects.isEmpty, globalObjects.contains(text), node.kind == .attribute {
            // `globalThis.eval` is `eval`, and `window.cp.exec` what `cp.exec` stands for.
            let global = withoutGlobalObject(node)
            return expand(global) ?? global
        }
        guard resolve(text) != nil else { return nil }
        return rebuild(node)
    }

    /// An attribute chain rooted at a global object, without it (`globalThis.a.b` → `a.b`).
    private func withoutGlobalObject(_ node: SyntaxNode) -> SyntaxNode {
        guard node.kind == .attribute, let base = node.children.first else { return node }
        if base.kind == .name { return SyntaxNode(.name, text: node.text, range: node.range) }
        var copy = node
        copy.children[0] = withoutGlobalObject(base)
        return copy
    }

    private func rebuild(_ node: SyntaxNode) -> SyntaxNode? {
        switch node.kind {
        case .name:
            guard let text = node.text, let parts = segments[text], let first = parts.first else { return nil }
            var out = SyntaxNode(.name, text: first, range: node.range)
            for part in parts.dropFirst() { out = SyntaxNode(.attribute, text: part, children: [out], range: node.range) }
            return out
        case .attribute:
            guard let base = node.children.first, let expanded = rebuild(base) else { return nil }
            var copy = node
            copy.children[0] = expanded
            return copy
        default:
            return nil
        }
    }
}
