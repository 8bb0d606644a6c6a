import JavaScriptSyntax
import SyntaxTree

/// `import` and `export`. A default or namespace import binds the module itself (`import`), named
/// imports bind its members (`importFrom`), so that the engine's import aliases resolve
/// `import { exec as run } from 'child_process'; run(x)` to `child_process.exec`. Modules are named
/// as ``ModuleSpecifier`` says (`node:` dropped, relative ones Python's way).
extension Lowerer {
    /// The statements of an import or export.
    func moduleStatement(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        switch js.kind {
        case .importDeclaration:
            guard js.text != "type" else { return [] }
            return importDeclaration(js)
        case .importEquals:
            let local = child(js, 0)
            let reference = child(js, 1)
            if reference.kind == .externalModuleReference {
                return [moduleImport(child(reference, 0).text ?? "", members: [], as: local.text, r)]
            }
            return [make(.assign, nil, [target(local), expression(reference)], r)]
        case .exportDeclaration:
            return statement(child(js, 0))
        case .exportDefault:
            let value = child(js, 0)
            switch value.kind {
            case .functionDeclaration, .classDeclaration:
                // `export default function f` is `f`, and the module's `default` is `f` too: an
                // importer calling the module (`import f from './f'; f(x)`) calls that.
                if let local = value.text {
                    let declared = statement(value)
                    guard !declared.isEmpty else { return [] }
                    return declared + [make(.assign, nil, [name("default", r), name(local, value.range)], r)]
                }
                if value.kind == .functionDeclaration && child(value, 5).isEmpty { return [] }
                let definition =
                    value.kind == .functionDeclaration ? function(value, name: "default") : classDefinition(value, name: "default")
                return [definition]
            case .interfaceDeclaration, .enumDeclaration, .typeAlias, .moduleDeclaration:
                return statement(value)
            case .functionExpression, .arrowFunction:
                // `export default () => ...` is named like `export default function () {}`.
                return [function(value, name: "default")]
            case .classExpression:
                return [classDefinition(value, name: "default")]
            default:
                return [make(.assign, nil, [name("default", r), expression(value)], r)]
            }
        case .exportNamed:
            guard js.text != "type" else { return [] }
            let specifiers = js.children.filter { $0.kind == .exportSpecifier && $0.text != "type" }
            let source = js.children.count >= 2 ? js.children[js.children.count - 2] : JSNode(.empty, range: r)
            guard source.kind == .string, let specifier = source.text, !specifiers.isEmpty else { return [] }
            let aliases = specifiers.map { specifier in
                let local = child(specifier, 0).text ?? ""
                let exported = child(specifier, 1).text
                return alias(local, as: exported == local ? nil : exported, specifier.range)
            }
            return [make(.importFrom, ModuleSpecifier.module(specifier), aliases, r)]
        case .exportAll:
            let exported = child(js, 0)
            let specifier = child(js, 1).text ?? ""
            if exported.isEmpty { return [make(.importFrom, ModuleSpecifier.module(specifier), [alias("*", as: nil, r)], r)] }
            return [moduleImport(specifier, members: [], as: exported.text, r)]
        case .exportAssignment:
            let exports = make(.attribute, "exports", [name("module", r)], r)
            return [make(.assign, nil, [exports, expression(child(js, 0))], r)]
        default:
            // `export as namespace N` declares a global for type checking only.
            return []
        }
    }

    /// `import d, * as ns, { a as b } from 'm'`: an `import` of the module for the default and
    /// namespace bindings (``moduleImport(_:members:as:_:)``), an `importFrom` for the named ones;
    /// `import 'm'` imports the module alone.
    private func importDeclaration(_ js: JSNode) -> [SyntaxNode] {
        let r = js.range
        let clause = child(js, 0)
        let specifier = child(js, 1).text ?? ""
        let module = ModuleSpecifier.module(specifier)
        guard clause.kind == .importClause else { return [moduleImport(specifier, members: [], as: nil, r)] }
        var modules: [SyntaxNode] = []
        var names: [SyntaxNode] = []
        for binding in clause.children {
            switch binding.kind {
            case .importDefault, .importNamespace:
                let bound = moduleImport(specifier, members: [], as: binding.text ?? child(binding, 0).text, binding.range)
                // `import d, * as ns from 'm'` binds both in one statement.
                if let last = modules.last, last.kind == bound.kind, last.text == bound.text {
                    modules[modules.count - 1].children += bound.children
                } else {
                    modules.append(bound)
                }
            case .importSpecifier where binding.text != "type":
                let imported = child(binding, 0).text ?? ""
                let local = child(binding, 1).text
                names.append(alias(imported, as: local == imported ? nil : local, binding.range))
            default:
                break
            }
        }
        var out: [SyntaxNode] = []
        for var statement in modules {
            statement.range = r
            out.append(statement)
        }
        if !names.isEmpty { out.append(make(.importFrom, module, names, r)) }
        return out
    }

    /// The statement binding `local` to the module `specifier` names, or to its member `members`
    /// (`require('m').a.b`): `import m as local` for a module, `from m.a import b as local` for a
    /// member, and for a relative module Python's `from . import db as local` (a package's module
    /// is imported from the package). A bare relative directory (`.`, `..`) has no such form: it is
    /// `import . as local`.
    func moduleImport(_ specifier: String, members: [String], as local: String?, _ r: SourceRange) -> SyntaxNode {
        let module = ModuleSpecifier.module(specifier)
        var base = module
        var path = members
        if path.isEmpty, let split = ModuleSpecifier.parentAndName(module) {
            base = split.parent
            path = [split.name]
        }
        guard let last = path.popLast() else { return make(.import, nil, [alias(module, as: local, r)], r) }
        return make(.importFrom, ModuleSpecifier.dotted(base, path), [alias(last, as: local == last ? nil : local, r)], r)
    }

    /// An `alias` of `dotted`, bound to `local` when given.
    func alias(_ dotted: String, as local: String?, _ r: SourceRange) -> SyntaxNode {
        make(.alias, dotted, local.map { [name($0, r)] } ?? [], r)
    }
}
