import PythonSyntax

/// What one JavaScript or TypeScript file shows, in its lowered tree, of the frameworks and
/// constructs the engine does not model (issue 75): the modules it imports, Angular components'
/// templates it names. Read from the tree the scan parsed anyway, so that saying what was not
/// analysed costs a walk, not a second parse.
public struct FrameworkEvidence: Sendable, Hashable {
    /// The modules the file imports, as the lowering names them: a package or an alias as written
    /// (`@angular/core`, `@/lib/db`), a relative one Python's way (`.db`, `..lib.util`).
    public internal(set) var imports: Set<String> = []
    /// The `templateUrl` values of its `@Component({...})` decorators, as written.
    public internal(set) var templateURLs: [String] = []
    /// Whether one of its `@Component({...})` decorators holds an inline `template:`.
    public internal(set) var hasInlineTemplate = false

    /// The evidence of `root`, a lowered JavaScript or TypeScript module.
    public init(root: SyntaxNode) {
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
    public var isEmpty: Bool { imports.isEmpty && templateURLs.isEmpty && !hasInlineTemplate }

    /// A dynamic `import('m')` or a `require('m')` the lowering left a call (not bound by a
    /// statement): its module, when it is a package or an alias (a relative one is neither).
    private mutating func noteCall(_ call: SyntaxNode) {
        guard let callee = call.children.first, callee.kind == .name, callee.text == "import" || callee.text == "require",
            call.children.count > 1, call.children[1].kind == .string, let specifier = call.children[1].text, !specifier.hasPrefix(".")
        else { return }
        imports.insert(specifier.hasPrefix("node:") ? String(specifier.dropFirst(5)) : specifier)
    }

    /// `@Component({templateUrl: './x.html'})`, `@Component({template: '<p>{{x}}</p>'})`, also
    /// written `@core.Component(...)`.
    private mutating func noteDecorators(_ decorators: SyntaxNode) {
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
