import JavaScriptSyntax
import SyntaxTree

/// CommonJS imports: a declaration or assignment statement whose value is `require('m')` (or a
/// member of it) is the import it stands for, so that `const cp = require('child_process')` and
/// `import cp from 'child_process'` are one shape to the engine's import aliases.
extension Lowerer {
    /// The module a `require('<literal>')` (or `await import('<literal>')`) names and the members
    /// read off it (`require('m').a['b']` → (`m`, [`a`, `b`])); nil for anything else (a computed
    /// name, more arguments, a call of it).
    func requiredModule(_ js: JSNode) -> (specifier: String, members: [String])? {
        var node = js
        var members: [String] = []
        while node.kind == .member || node.kind == .index || node.kind == .parenthesized {
            if node.kind == .member {
                let property = child(node, 1)
                guard property.kind == .identifier, let text = property.text else { return nil }
                members.insert(text, at: 0)
            } else if node.kind == .index {
                guard let key = literalKey(child(node, 1)) else { return nil }
                members.insert(key, at: 0)
            }
            node = child(node, 0)
        }
        return loadedModule(node).map { ($0, members) }
    }

    /// The imports binding `pattern` (a name, or an object or array pattern) to `value` when the
    /// value is a ``requiredModule(_:)``; nil otherwise. `const {a, b: c} = require('m')` is
    /// `from m import a, b as c`; a pattern with more in it (defaults, nesting, a rest) binds the
    /// module to a temporary and destructures that. The statements take `r`, the declaration's or
    /// assignment's range.
    func requireImport(_ pattern: JSNode, _ value: JSNode, _ r: SourceRange) -> [SyntaxNode]? {
        guard let (specifier, members) = requiredModule(value) else { return nil }
        switch pattern.kind {
        case .identifier:
            return [moduleImport(specifier, members: members, as: pattern.text, r)]
        case .objectPattern, .arrayPattern:
            if pattern.kind == .objectPattern, let names = importedNames(pattern) {
                let module = ModuleSpecifier.dotted(ModuleSpecifier.module(specifier), members)
                let aliases = names.map { alias($0.imported, as: $0.local == $0.imported ? nil : $0.local, $0.range) }
                return [make(.importFrom, module, aliases, r)]
            }
            let temporary = temporaryName()
            return [moduleImport(specifier, members: members, as: temporary, value.range)]
                + destructure(pattern, name(temporary, value.range))
        default:
            return nil
        }
    }

    /// `{a, b: c}`'s (imported, local) names, when every member is a plain name or `key: name`;
    /// nil when one has a default, a nested pattern, a computed or quoted key, or is a rest.
    private func importedNames(_ pattern: JSNode) -> [(imported: String, local: String, range: SourceRange)]? {
        guard !pattern.children.isEmpty else { return nil }
        var names: [(imported: String, local: String, range: SourceRange)] = []
        for member in pattern.children {
            let key = child(member, 0)
            let value = child(member, 1)
            guard member.kind == .objectProperty, key.kind == .identifier, let imported = key.text,
                value.kind == .identifier, let local = value.text
            else { return nil }
            names.append((imported, local, member.range))
        }
        return names
    }
}
