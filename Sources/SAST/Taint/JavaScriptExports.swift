import PythonSyntax

/// The names a JavaScript module exports its functions and classes under when they are not their
/// own, from its lowered tree: CommonJS's `module.exports = { find: findUser }`,
/// `exports.find = function (...) {...}` (a function hoisted as `#fnN`, then assigned), and the
/// module itself, called by an importer (`module.exports = f`, `export default f`), which is
/// ``defaultName``. Importers name what they call by the exported name; the summaries are the
/// local definitions', published under both.
enum JavaScriptExports {
    /// The name of what the module itself is when called (`const f = require('./f'); f(x)`),
    /// as the lowering names a default export.
    static let defaultName = "default"

    /// Exported name → the name of the module's definition it stands for, from the module's
    /// top-level assignments; a name exported as itself is left out.
    static func aliases(in root: SyntaxNode) -> [String: String] {
        var out: [String: String] = [:]
        for statement in root.children where statement.kind == .assign {
            guard let value = statement.children.last else { continue }
            for target in statement.children.dropLast() {
                switch exported(target) {
                case .whole:
                    if let local = localName(value) { out[defaultName] = local }
                    // `module.exports = { find, remove: removeUser }`: what the module's members are.
                    for (key, local) in members(value) { out[key] = local }
                case .member(let name):
                    if let local = localName(value) { out[name] = local }
                case nil:
                    // `const mailer = { queue(a) {...} }` (exported or not): `mailer.queue` is a
                    // hoisted `#fnN`, found by that name when another module imports `mailer`.
                    if target.kind == .name, let object = target.text, value.kind == .dict {
                        for (key, local) in members(value) { out[object + "." + key] = local }
                    }
                }
            }
        }
        return out.filter { $0.key != $0.value }
    }

    /// What an assignment's target exports: the whole module (`module.exports`, the `default`
    /// of `export default`) or one of its members (`module.exports.f`, `exports.f`).
    private enum Exported {
        case whole
        case member(String)
    }

    private static func exported(_ target: SyntaxNode) -> Exported? {
        if isModuleExports(target) { return .whole }
        if target.kind == .name, target.text == defaultName { return .whole }
        guard target.kind == .attribute, let name = target.text, let base = target.children.first else { return nil }
        if isModuleExports(base) || (base.kind == .name && base.text == "exports") { return .member(name) }
        return nil
    }

    /// `module.exports`.
    private static func isModuleExports(_ node: SyntaxNode) -> Bool {
        node.kind == .attribute && node.text == "exports" && node.children.first?.kind == .name
            && node.children.first?.text == "module"
    }

    /// The members of an object literal that name a definition (`{ find, remove: removeUser,
    /// queue() {...} }`: `find`, `removeUser`, the method's `#fnN`), by key.
    private static func members(_ object: SyntaxNode) -> [(key: String, local: String)] {
        guard object.kind == .dict else { return [] }
        return object.children.compactMap { member in
            guard member.kind == .keyValue, member.children.count == 2, member.children[0].kind == .string,
                let key = member.children[0].text, let local = localName(member.children[1])
            else { return nil }
            return (key, local)
        }
    }

    /// The definition a value names: a function or class (its own, or a hoisted `#fnN`).
    private static func localName(_ value: SyntaxNode) -> String? {
        value.kind == .name ? value.text : nil
    }
}
