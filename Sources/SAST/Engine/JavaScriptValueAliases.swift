import PythonSyntax

/// JavaScript's other names for a function or module (issue 76, H1): `const run = cp.exec`,
/// `const e = eval`, `let m = require('vm')` then `const f = m.runInNewContext`, and the global
/// object's properties (`globalThis.eval`, `window.eval`, `global.eval`, `self.eval`).
///
/// A name stands for a dotted name when the file binds it exactly once (a `const`, or a `let`
/// never assigned again: the lowering keeps no block scopes, so one binding in the file is one
/// value), to a name or attribute chain rooted at an import, at a global object, or at a name the
/// file never binds (a global: `eval`, `Function`, `setTimeout`). A name bound anywhere else too,
/// a parameter, or a chain rooted at a local value is no alias. The global objects are those the
/// file does not bind (`const self = this` is a local).
struct JavaScriptValueAliases {
    /// JavaScript's names of the global object.
    static let globalObjectNames: Set<String> = ["globalThis", "window", "global", "self"]

    /// The global objects the file does not bind.
    let globalObjects: Set<String>
    /// How often each name is bound in the file (assignments, parameters, definitions, imports,
    /// loop and handler targets).
    private let bindings: [String: Int]
    /// `(local, value)` for each single-name assignment of a name or attribute chain.
    private let candidates: [(local: String, value: [String])]

    init(root: SyntaxNode) {
        var bindings: [String: Int] = [:]
        var candidates: [(local: String, value: [String])] = []
        func bind(_ target: SyntaxNode) {
            switch target.kind {
            case .name: if let text = target.text { bindings[text, default: 0] += 1 }
            case .tuple, .list, .starred: for part in target.children { bind(part) }
            default: break
            }
        }
        root.walk { node in
            switch node.kind {
            case .assign:
                for target in node.children.dropLast() { bind(target) }
                if node.children.count == 2, node.children[0].kind == .name, let local = node.children[0].text,
                    let value = node.children[1].dottedName
                {
                    candidates.append((local, value.split(separator: ".").map(String.init)))
                }
            case .annAssign, .augAssign, .namedExpr, .for, .asyncFor:
                if let target = node.children.first { bind(target) }
            case .withItem where node.children.count == 2:
                bind(node.children[1])
            case .parameter, .varArgs, .kwArgs, .functionDef, .asyncFunctionDef, .classDef, .exceptHandler:
                if let text = node.text { bindings[text, default: 0] += 1 }
            case .alias:
                if let local = node.children.first?.text ?? node.text?.split(separator: ".").first.map(String.init) {
                    bindings[local, default: 0] += 1
                }
            default:
                break
            }
            return true
        }
        self.bindings = bindings
        self.candidates = candidates
        globalObjects = Self.globalObjectNames.filter { bindings[$0] == nil }
    }

    /// Each alias and the dotted name it stands for, its root resolved through `imports` (the
    /// file's import aliases; `imported`, every name an import binds, its own module's name
    /// included) and through the other aliases (`const m = cp; const run = m.exec`).
    func aliases(through imports: [String: String], imported: Set<String>) -> [String: String] {
        var out: [String: String] = [:]
        // Each round resolves one more link of a chain of aliases; a few links are all code writes.
        for _ in 0..<Self.rounds {
            var changed = false
            for (local, value) in candidates where bindings[local] == 1 && out[local] == nil {
                guard let resolved = resolve(value, imports: imports, imported: imported, aliases: out), resolved != local else { continue }
                out[local] = resolved
                changed = true
            }
            if !changed { break }
        }
        return out
    }

    /// The dotted name `value` stands for, or nil when its root is a local value.
    private func resolve(_ value: [String], imports: [String: String], imported: Set<String>, aliases: [String: String])
        -> String?
    {
        var parts = value[...]
        while let head = parts.first, globalObjects.contains(head), parts.count > 1 { parts = parts.dropFirst() }
        guard let head = parts.first else { return nil }
        let rest = parts.dropFirst()
        let root: String
        if let target = imports[head] ?? aliases[head] {
            root = target
        } else if bindings[head] == nil || imported.contains(head) && bindings[head] == 1 {
            // A global the file never binds, or a module imported under its own name.
            root = head
        } else {
            return nil
        }
        return ([root] + rest).joined(separator: ".")
    }

    /// Links of a chain of aliases followed at most.
    private static let rounds = 4
}
