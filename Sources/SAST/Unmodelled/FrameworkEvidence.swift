import PythonSyntax

/// What one JavaScript or TypeScript file shows, in its lowered tree, of the frameworks and
/// constructs the engine does not model (issue 75): the modules it imports, tRPC procedures it
/// defines, Angular components' templates it names. Read from the tree the scan parsed anyway, so
/// that saying what was not analysed costs a walk, not a second parse.
public struct FrameworkEvidence: Sendable, Hashable {
    /// The modules the file imports, as the lowering names them: a package or an alias as written
    /// (`@trpc/server`, `@/lib/db`), a relative one Python's way (`.db`, `..lib.util`).
    public internal(set) var imports: Set<String> = []
    /// Whether it calls `.input(...)`, `.query(...)`, `.mutation(...)` or `.subscription(...)` on a
    /// tRPC procedure builder (`t.procedure`, `publicProcedure.use(auth)`), or a v9 router's
    /// `.query('name', {...})`: what such a call receives is the client's request, and no model
    /// makes it a source.
    public internal(set) var definesProcedures = false
    /// The `templateUrl` values of its `@Component({...})` decorators, as written.
    public internal(set) var templateURLs: [String] = []
    /// Whether one of its `@Component({...})` decorators holds an inline `template:`.
    public internal(set) var hasInlineTemplate = false

    /// The methods of a tRPC procedure builder that define a procedure or its input.
    static let procedureMethods: Set<String> = ["input", "query", "mutation", "subscription"]
    /// The calls a tRPC v9 router is made by (`trpc.router()`, `createRouter()`).
    static let routerFactories: Set<String> = ["router", "createRouter"]

    /// The evidence of `root`, a lowered JavaScript or TypeScript module.
    public init(root: PyNode) {
        root.walk { node in
            switch node.kind {
            case .import:
                for alias in node.children { if let module = alias.text { imports.insert(module) } }
            case .importFrom:
                if let module = node.text { imports.insert(module) }
            case .call:
                noteCall(node)
            case .classDef:
                if let decorators = node.children.first, decorators.kind == .decorators { noteDecorators(decorators) }
            default:
                break
            }
            return true
        }
    }

    /// Whether nothing was found (most files).
    public var isEmpty: Bool { imports.isEmpty && !definesProcedures && templateURLs.isEmpty && !hasInlineTemplate }

    /// A dynamic `import('m')` or a `require('m')` the lowering left a call (not bound by a
    /// statement): its module, when it is a package or an alias (a relative one would need the
    /// lowering's naming, and one step of tRPC's resolution does without it). Then a procedure.
    private mutating func noteCall(_ call: PyNode) {
        guard let callee = call.children.first else { return }
        if callee.kind == .name, callee.text == "import" || callee.text == "require", call.children.count > 1,
            call.children[1].kind == .string, let specifier = call.children[1].text, !specifier.hasPrefix(".")
        {
            imports.insert(specifier.hasPrefix("node:") ? String(specifier.dropFirst(5)) : specifier)
            return
        }
        guard !definesProcedures, callee.kind == .attribute, let method = callee.text, Self.procedureMethods.contains(method),
            let receiver = callee.children.first
        else { return }
        if Self.isProcedureBuilder(receiver) {
            definesProcedures = true
        } else if method != "input", call.children.count > 1, call.children[1].kind == .string, Self.isV9Router(receiver) {
            definesProcedures = true
        }
    }

    /// Whether `node` is a chain ending in a procedure builder: a name or member whose name ends in
    /// `procedure` (`t.procedure`, `publicProcedure`, `protectedProcedure.use(auth).input(schema)`).
    static func isProcedureBuilder(_ node: PyNode) -> Bool {
        var node = node
        // Bounded by the chain's length: each step goes one level down the tree.
        while true {
            switch node.kind {
            case .name:
                return node.text.map(namesProcedure) ?? false
            case .attribute:
                if node.text.map(namesProcedure) ?? false { return true }
                guard let base = node.children.first else { return false }
                node = base
            case .call:
                guard let callee = node.children.first else { return false }
                node = callee
            default:
                return false
            }
        }
    }

    /// Whether `node` is a chain of calls rooted in a v9 router (`trpc.router().query(...)`,
    /// `createRouter().mutation(...)`).
    static func isV9Router(_ node: PyNode) -> Bool {
        var node = node
        while true {
            switch node.kind {
            case .call:
                guard let callee = node.children.first else { return false }
                if callee.kind == .name || callee.kind == .attribute, let name = callee.text, routerFactories.contains(name) { return true }
                node = callee
            case .attribute:
                guard let base = node.children.first else { return false }
                node = base
            default:
                return false
            }
        }
    }

    /// `procedure`, `publicProcedure`, `authedProcedure`: a builder by tRPC's naming.
    private static func namesProcedure(_ name: String) -> Bool {
        name == "procedure" || name.hasSuffix("Procedure")
    }

    /// `@Component({templateUrl: './x.html'})`, `@Component({template: '<p>{{x}}</p>'})`, also
    /// written `@core.Component(...)`.
    private mutating func noteDecorators(_ decorators: PyNode) {
        for decorator in decorators.children {
            guard let call = decorator.children.first, call.kind == .call, let callee = call.children.first,
                callee.kind == .name || callee.kind == .attribute, callee.text == "Component"
            else { continue }
            for argument in call.children.dropFirst() where argument.kind == .dict {
                for entry in argument.children where entry.kind == .keyValue && entry.children.count == 2 {
                    guard entry.children[0].kind == .string, let key = entry.children[0].text else { continue }
                    if key == "templateUrl", entry.children[1].kind == .string, let url = entry.children[1].text {
                        templateURLs.append(url)
                    } else if key == "template" {
                        hasInlineTemplate = true
                    }
                }
            }
        }
    }
}
