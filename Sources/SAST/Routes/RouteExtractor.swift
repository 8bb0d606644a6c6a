import Findings
import Languages
import PythonSyntax

/// Finds the request handlers of one Python file (``RouteHandler``): functions under a route
/// decorator (`@app.route`, `@bp.get`, `@router.post`: Flask, FastAPI, aiohttp), the HTTP methods of
/// view classes (Flask-RESTful/RESTX `Resource`, `MethodView`, Django/DRF views and viewsets,
/// Tornado `RequestHandler`), Django function views (first parameter `request` in a module that
/// imports Django), and Graphene `mutate`/`resolve_*` methods.
struct RouteExtractor {
    let file: String
    let aliases: ImportAliases
    /// Guards of a whole app or router object, by its name: FastAPI's
    /// `router = APIRouter(dependencies=[Depends(auth)])`.
    var objectGuards: [String: [String]] = [:]
    /// Whether an app or router object's guards admit only administrators, by its name.
    var administratorObjects: Set<String> = []
    /// Objects that register blueprints in this file (`app.register_blueprint(bp)`): applications.
    var applicationObjects: Set<String> = []

    /// Decorator methods that register a route (`@x.route("/p")`, `@x.get("/p")`).
    static let routeMethods: Set<String> = ["route", "get", "post", "put", "delete", "patch", "api_route", "head", "options"]
    /// Methods of a view class that answer a request (HTTP verbs, DRF viewset actions).
    static let classHandlerMethods: Set<String> = [
        "get", "post", "put", "delete", "patch", "head", "options", "list", "retrieve", "create", "update",
        "partial_update", "destroy",
    ]
    /// Class attributes that guard every method of a view class.
    static let classGuardAttributes: Set<String> = [
        "permission_classes", "authentication_classes", "method_decorators", "decorators",
    ]
    /// Parameters that carry the framework's objects, not request-supplied values.
    static let frameworkParameters: Set<String> = ["self", "cls", "request", "req", "info", "root", "_", "parent"]

    /// The handlers and `before_request` hooks of `root`, a parsed module.
    func handlers(in root: SyntaxNode) -> [RouteHandler] {
        let importsDjango = imports(root, prefixes: ["django", "rest_framework"])
        var extractor = self
        for statement in root.children where statement.kind == .assign {
            guard let value = statement.children.last, value.kind == .call else { continue }
            // `router = APIRouter(dependencies=[Depends(auth)])`, and `router = UserAPIRouter(...)`:
            // a router class of the project's own may carry them (judged by what the class does,
            // ``ProjectGuards``).
            let guards =
                (value.keywordArgument("dependencies").map(guardNames) ?? [])
                + (value.callee?.dottedName.map { [aliases.canonicalize($0)] } ?? [])
            let administrators = value.keywordArgument("dependencies").map(Self.namesAdministrators) ?? false
            for target in statement.children.dropLast() {
                guard let name = target.dottedName else { continue }
                extractor.objectGuards[name, default: []] += guards
                if administrators { extractor.administratorObjects.insert(name) }
            }
        }
        root.walk { node in
            if node.kind == .call, let callee = node.callee, callee.kind == .attribute, callee.text == "register_blueprint",
                let base = callee.children.first?.dottedName
            {
                extractor.applicationObjects.insert(base)
            }
            return true
        }
        var out: [RouteHandler] = []
        extractor.visit(root, topLevel: true, importsDjango: importsDjango, into: &out)
        if importsDjango || imports(root, prefixes: ["tornado"]) { out += urlTargets(root) }
        out += blueprintPrefixes(root)
        out += definitions(in: root)
        return out
    }

    /// The module a file is (`pkg/auth.py`: `pkg.auth`; `pkg/__init__.py`: `pkg`).
    static func moduleName(_ file: String) -> String {
        var path = file
        // Another language's file is the module its own conventions name (`routes/users.routes.js`:
        // `routes.users:routes`, as the script's importers spell it).
        if let language = Languages.language(ofFile: file), language.modules.namespace != "",
            let module = language.module(ofFile: file)
        {
            return module.name
        }
        for suffix in [".py", ".pyw", ".ipynb"] where path.hasSuffix(suffix) { path.removeLast(suffix.count) }
        var parts = path.split(separator: "/").map(String.init)
        if parts.last == "__init__" { parts.removeLast() }
        return parts.joined(separator: ".")
    }

    /// Every function and class of the file (methods as `Class.method`), with its decorators or
    /// bases and what its body does: the project's own guards are found among them by what they
    /// do (``ProjectGuards``). A function's facts include the functions nested in it (a decorator
    /// factory's wrapper).
    private func definitions(in root: SyntaxNode) -> [RouteHandler] {
        var out: [RouteHandler] = []
        // Statement nesting, which the parser bounds.
        func visit(_ node: SyntaxNode, prefix: String) {
            for child in node.children {
                switch child.kind {
                case .functionDef, .asyncFunctionDef:
                    guard let name = child.text else { continue }
                    let body = child.children.count > 4 ? child.children[4] : child
                    out.append(
                        RouteHandler(
                            file: file, name: prefix + name, group: "", receiver: nil, line: child.range.start.line,
                            column: child.range.start.column,
                            guards: decoratorGuards(of: child),
                            facts: HandlerFacts(body: body, supplied: [], aliases: aliases), kind: .definition))
                case .classDef:
                    guard let name = child.text, child.children.count > 3 else { continue }
                    out.append(
                        RouteHandler(
                            file: file, name: prefix + name, group: "", receiver: nil, line: child.range.start.line,
                            column: child.range.start.column,
                            guards: bases(of: child) + decoratorGuards(of: child),
                            facts: HandlerFacts(body: child.children[3], supplied: [], aliases: aliases), kind: .definition))
                    visit(child.children[3], prefix: prefix + name + ".")
                case .block, .if, .try:
                    visit(child, prefix: prefix)
                default:
                    continue
                }
            }
        }
        let module = Self.moduleName(file)
        visit(root, prefix: module.isEmpty ? "" : module + ".")
        return out
    }

    /// The views Django URL patterns name: `path("p/", views.show)`, `re_path(r"^p$", show)`,
    /// `url(r"^p$", views.show, name="show")` (the last name of the second argument), with the
    /// pattern's path (``RoutePath/fromPattern(_:)``) and what an entry includes
    /// (`include("polls.urls")`); and Tornado's URL specs, `(r"/p", Handler)` and
    /// `url(r"/p", Handler)`.
    private func urlTargets(_ root: SyntaxNode) -> [RouteHandler] {
        var out: [RouteHandler] = []
        func entry(_ node: SyntaxNode, pattern: SyntaxNode, target: SyntaxNode) {
            var target = target
            var included: String?
            if target.kind == .call, let callee = target.callee, callee.text == "include",
                let module = target.callArguments.first, module.kind == .string
            {
                included = module.text
            } else if target.kind == .call, let callee = target.callee, callee.kind == .attribute,
                let base = callee.children.first
            {
                // `Class.as_view()`: the class.
                target = base
            }
            let name = included.map { "include:" + $0 } ?? target.dottedName?.split(separator: ".").last.map(String.init)
            guard let name else { return }
            var found = RouteHandler(
                file: file, name: name, group: "", receiver: nil, line: node.range.start.line,
                column: node.range.start.column, kind: .urlTarget)
            found.path = pattern.kind == .string ? pattern.text.flatMap { RoutePath.fromPattern($0) } : nil
            found.included = included
            out.append(found)
        }
        root.walk { node in
            if node.kind == .tuple, node.children.count >= 2, node.children[0].kind == .string,
                node.children[0].text.map({ $0.hasPrefix("/") || $0.hasPrefix("^/") }) == true,
                node.children[1].kind == .name || node.children[1].kind == .attribute
            {
                // Tornado: `(r"/path", Handler)` in an application's handler list.
                entry(node, pattern: node.children[0], target: node.children[1])
                return true
            }
            // The callee's last name first (a name's text, an attribute's name): most calls fail it
            // before their dotted name is spelled out.
            guard node.kind == .call, let callee = node.callee, callee.kind == .name || callee.kind == .attribute,
                let last = callee.text, ["path", "re_path", "url"].contains(last), callee.dottedName != nil,
                node.callArguments.count >= 2
            else { return true }
            entry(
                node, pattern: node.callArguments[node.callArguments.startIndex],
                target: node.callArguments[node.callArguments.startIndex + 1])
            return true
        }
        return out
    }

    /// The URL prefixes of Flask blueprints: `bp = Blueprint(..., url_prefix="/p")` at the top of
    /// the module, and `x.register_blueprint(bp, url_prefix="/p")` anywhere (which wins).
    private func blueprintPrefixes(_ root: SyntaxNode) -> [RouteHandler] {
        var out: [RouteHandler] = []
        func entry(_ node: SyntaxNode, mounted: String, prefix: SyntaxNode, registers: Bool) {
            guard prefix.kind == .string, let path = prefix.text else { return }
            var found = RouteHandler(
                file: file, name: (registers ? "register " : "blueprint ") + mounted, group: "", receiver: nil,
                line: node.range.start.line,
                column: node.range.start.column, path: path, kind: .urlTarget)
            found.mounted = mounted
            out.append(found)
        }
        let module = Self.moduleName(file)
        for statement in root.children where statement.kind == .assign {
            guard let value = statement.children.last, value.kind == .call, let callee = value.callee?.dottedName,
                aliases.canonicalize(callee).hasSuffix("Blueprint"), let prefix = value.keywordArgument("url_prefix"),
                statement.children.count == 2, let name = statement.children[0].dottedName
            else { continue }
            entry(statement, mounted: module.isEmpty ? name : module + "." + name, prefix: prefix, registers: false)
        }
        root.walk { node in
            guard node.kind == .call, let callee = node.callee, callee.kind == .attribute, callee.text == "register_blueprint",
                let blueprint = node.callArguments.first?.dottedName, let prefix = node.keywordArgument("url_prefix")
            else { return true }
            let canonical = aliases.canonicalize(blueprint)
            // A blueprint of this module keeps this module's name, as its definition gives it.
            let mounted = canonical == blueprint && !blueprint.contains(".") && !module.isEmpty ? module + "." + blueprint : canonical
            entry(node, mounted: mounted, prefix: prefix, registers: true)
            return true
        }
        return out
    }

    private func visit(_ node: SyntaxNode, topLevel: Bool, importsDjango: Bool, into out: inout [RouteHandler]) {
        // Recursion follows statement nesting, which the parser bounds.
        for child in node.children {
            switch child.kind {
            case .functionDef, .asyncFunctionDef:
                if let handler = decoratedHandler(child) ?? djangoView(child, topLevel: topLevel, importsDjango: importsDjango) {
                    out.append(handler)
                } else {
                    visit(child, topLevel: false, importsDjango: importsDjango, into: &out)
                }
            case .classDef:
                let views = classHandlers(child)
                out += views.isEmpty ? controllerHandlers(child) : views
            case .block, .if, .try, .with, .asyncWith:
                visit(child, topLevel: topLevel, importsDjango: importsDjango, into: &out)
            default:
                continue
            }
        }
    }

    /// A function under `@X.route(...)`/`@X.get("/...")`, or a `@X.before_request` hook.
    private func decoratedHandler(_ def: SyntaxNode) -> RouteHandler? {
        for decorator in decorators(of: def) {
            let expression = decorator.children.first ?? decorator
            if expression.kind == .attribute, let base = expression.children.first?.dottedName,
                ["before_request", "before_app_request"].contains(expression.text ?? "")
            {
                var hook = handler(def, group: "\(file)#\(base)", receiver: aliases.canonicalize(base), path: nil)
                hook.kind = .hook
                hook.coversPackage = applicationObjects.contains(base)
                return hook
            }
            guard expression.kind == .call, let callee = expression.callee, callee.kind == .attribute,
                let method = callee.text, Self.routeMethods.contains(method), let base = callee.children.first?.dottedName
            else { continue }
            let path = expression.callArguments.first.flatMap { $0.kind == .string ? $0.text : nil }
            // `@cache.get(...)` is not a route: a verb decorator names a path (`""` is the prefix
            // of a FastAPI router: `APIRouter(prefix="/email")` with `@router.get("")`).
            if method != "route", method != "api_route", !(path.map { $0.isEmpty || $0.hasPrefix("/") } ?? false) { continue }
            let receiver = aliases.canonicalize(base)
            var found = handler(def, group: "\(file)#\(receiver)", receiver: receiver, path: path)
            found.methods = Self.methods(decorator: method, call: expression)
            found.guards += objectGuards[base] ?? []
            found.administratorsOnly = found.administratorsOnly || administratorObjects.contains(base)
            return found
        }
        return nil
    }

    /// The HTTP methods a route decorator registers: its verb (`@app.post`), else its
    /// `methods=[...]` strings, else `GET` (Flask's `route` default); empty when `methods` is not
    /// a list of strings.
    static func methods(decorator: String, call: SyntaxNode) -> [String] {
        guard decorator == "route" || decorator == "api_route" else { return [decorator.uppercased()] }
        guard let list = call.keywordArgument("methods") else { return decorator == "route" ? ["GET"] : [] }
        guard list.kind == .list || list.kind == .tuple else { return [] }
        let names = list.children.compactMap { $0.kind == .string ? $0.text?.uppercased() : nil }
        return names.count == list.children.count ? names : []
    }

    /// A module-level function whose first parameter is `request`, in a module that imports Django.
    private func djangoView(_ def: SyntaxNode, topLevel: Bool, importsDjango: Bool) -> RouteHandler? {
        guard importsDjango, topLevel, parameterNames(def).first == "request" else { return nil }
        var view = handler(def, group: "\(file)#views", receiver: nil, path: nil)
        // A decorated view is one (`@login_required`, `@api_view`, `@csrf_exempt`); else a URL must name it.
        if decorators(of: def).isEmpty { view.kind = .unroutedView }
        return view
    }

    /// The routed methods of a class that is not a view class: a class-based controller
    /// (fastapi-utils `@cbv(router)`, a project's `@controller(router)`) whose methods carry the
    /// route decorators, with the class's bases and decorators as guards (its dependencies).
    private func controllerHandlers(_ cls: SyntaxNode) -> [RouteHandler] {
        guard cls.children.count > 3 else { return [] }
        let classGuards = decoratorGuards(of: cls) + bases(of: cls)
        let classSources = guardSources(of: cls)
        return cls.children[3].children.compactMap { def -> RouteHandler? in
            guard def.kind == .functionDef || def.kind == .asyncFunctionDef, var handler = decoratedHandler(def),
                handler.kind == .handler
            else { return nil }
            handler.name = "\(cls.text ?? "").\(handler.name)"
            handler.guards += classGuards
            handler.administratorsOnly = handler.administratorsOnly || classSources.contains(where: Self.namesAdministrators)
            return handler
        }
    }

    /// Whether guard code admits only administrators: a guard, dependency or base named for an
    /// administrator check (`admin_required`, `IsAdminUser`, `get_admin_user`,
    /// `AdminController`, `staff_member_required`, `is_superuser`), or a role check whose
    /// roles are all administrators' (`require_role(["admin"])`). Not one that also admits
    /// others (`IsAdminOrReadOnly`, `require_role(["admin", "user"])`), not a mere mention
    /// (`tags=["Admin"]`, `get_cloud_admin_client`).
    static func namesAdministrators(_ node: SyntaxNode) -> Bool {
        var found = false
        node.walk { inner in
            if found { return false }
            switch inner.kind {
            case .name, .attribute:
                if let name = inner.text, isAdministratorCheck(words(of: name)) { found = true }
            case .call:
                guard let callee = inner.callee?.text, !Set(words(of: callee)).isDisjoint(with: roleWords) else { break }
                let roles = inner.callArguments.flatMap { argument -> [SyntaxNode] in
                    [.list, .tuple, .set].contains(argument.kind) ? argument.children : [argument]
                }.filter { $0.kind == .string }
                if !roles.isEmpty, roles.allSatisfy({ administratorWords.contains(($0.text ?? "").lowercased()) }) { found = true }
            default:
                break
            }
            return !found
        }
        return found
    }

    /// Whether a name's words make it an administrator check: an administrator word beside a
    /// word of checking, and none of admitting others too.
    private static func isAdministratorCheck(_ words: [String]) -> Bool {
        guard let at = words.firstIndex(where: administratorWords.contains), Set(words).isDisjoint(with: alsoAdmits) else {
            return false
        }
        // `admin_required`, `AdminOnly`; not a bare `admin` (Django's `@admin.register`).
        return at == words.startIndex && words.count > 1 || !Set(words).isDisjoint(with: checkWords)
    }

    /// `IsAdminUser`: is, admin, user; `staff_member_required`: staff, member, required.
    static func words(of name: String) -> [String] {
        var out: [String] = []
        var current = ""
        var previousLower = false
        for character in name {
            if character == "_" || character == "." || character == "-" {
                if !current.isEmpty { out.append(current.lowercased()) }
                current = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower, !current.isEmpty {
                out.append(current.lowercased())
                current = ""
            }
            current.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        if !current.isEmpty { out.append(current.lowercased()) }
        return out
    }

    static let administratorWords: Set<String> = ["admin", "admins", "administrator", "administrators", "superuser", "staff"]
    private static let checkWords: Set<String> = [
        "required", "require", "requires", "only", "is", "user", "users", "controller", "view", "mixin", "permission",
        "member", "check", "guard", "access",
    ]
    private static let alsoAdmits: Set<String> = ["or", "read", "readonly", "owner", "self", "tags"]
    private static let roleWords: Set<String> = ["role", "roles", "permission", "permissions", "group", "groups"]

    /// The expressions of a class's bases and decorators: what guards every method.
    private func guardSources(of cls: SyntaxNode) -> [SyntaxNode] {
        cls.children[2].children.filter { $0.kind != .keyword } + decorators(of: cls).map { $0.children.first ?? $0 }
    }

    /// The handler methods of a view class or a GraphQL type, with the class's guards.
    private func classHandlers(_ cls: SyntaxNode) -> [RouteHandler] {
        guard cls.children.count > 3 else { return [] }
        let bases = bases(of: cls)
        let last = bases.map { String($0.split(separator: ".").last ?? "") }
        let isView = last.contains { name in
            ["Handler", "Resource", "View", "ViewSet", "APIView", "Endpoint", "HTTPEndpoint"].contains { name.hasSuffix($0) }
        }
        let isGraphQL = bases.contains { $0.hasPrefix("graphene.") } || last.contains { ["Mutation", "ObjectType"].contains($0) }
        guard isView || isGraphQL else { return [] }
        var classGuards = decoratorGuards(of: cls) + bases
        var classSources = guardSources(of: cls)
        let body = cls.children[3]
        for statement in body.children where statement.kind == .assign {
            let targets = statement.children.dropLast().compactMap(\.dottedName)
            if targets.contains(where: Self.classGuardAttributes.contains), let value = statement.children.last {
                classGuards += guardNames(value)
                classSources.append(value)
            }
        }
        var out: [RouteHandler] = []
        for def in body.children where def.kind == .functionDef || def.kind == .asyncFunctionDef {
            guard let name = def.text else { continue }
            let isAction = decorators(of: def).contains {
                ($0.children.first?.callee ?? $0.children.first)?.dottedName?.hasSuffix("action") ?? false
            }
            let answers =
                isView && (Self.classHandlerMethods.contains(name) || isAction)
                || isGraphQL && (name == "mutate" || name.hasPrefix("resolve_"))
            guard answers else { continue }
            var handler = handler(def, group: "\(file)#classes", receiver: nil, path: nil)
            handler.name = "\(cls.text ?? "").\(name)"
            if Self.routeMethods.contains(name) { handler.methods = [name.uppercased()] }
            handler.guards += classGuards
            handler.administratorsOnly = handler.administratorsOnly || classSources.contains(where: Self.namesAdministrators)
            out.append(handler)
        }
        return out
    }

    private func handler(_ def: SyntaxNode, group: String, receiver: String?, path: String?) -> RouteHandler {
        let start = decorators(of: def).first?.range.start ?? def.range.start
        // The route's own decorator names its object (`@auth_bp.route`), which guards nothing.
        let guarding = decorators(of: def).filter { !isRouteDecorator($0) }
        var guards = guarding.flatMap { guardNames($0.children.first ?? $0) }
        var sources = guarding.map { $0.children.first ?? $0 }
        // ... but its `dependencies=[Depends(auth)]` (FastAPI) do.
        for decorator in decorators(of: def) where isRouteDecorator(decorator) {
            if let dependencies = decorator.children.first?.keywordArgument("dependencies") {
                guards += guardNames(dependencies)
                sources.append(dependencies)
            }
        }
        // FastAPI dependencies: `user = Depends(get_current_user)`, and in the annotation
        // `user: Annotated[User, Depends(get_current_user)]`.
        if def.children.count > 2 {
            for parameter in def.children[2].children where parameter.kind == .parameter {
                parameter.walk { node in
                    if Self.isDependency(node) {
                        guards += node.callArguments.flatMap(guardNames)
                        sources.append(node)
                    }
                    return true
                }
            }
        }
        let supplied = Set(parameterNames(def).filter { !Self.frameworkParameters.contains($0) })
            .subtracting(dependencyParameters(def))
        let body = def.children.count > 4 ? def.children[4] : def
        var handler = RouteHandler(
            file: file, name: def.text ?? "", group: group, receiver: receiver, line: start.line, column: start.column,
            path: path, guards: guards, facts: HandlerFacts(body: body, supplied: supplied, aliases: aliases, assignments: true))
        // The last line a node of the function starts on (its range, and the empty `else`/`finally`
        // of a `try`, run on to the next statement).
        var last = def.range.start.line
        def.walk { node in
            if node.kind != .empty { last = max(last, node.range.start.line) }
            return true
        }
        handler.endLine = last
        handler.administratorsOnly = sources.contains(where: Self.namesAdministrators)
        return handler
    }

    /// The dotted names an expression of guards names: `login_required`, `permission_required` of
    /// `permission_required("x")`, each element of `[IsAuthenticated, jwt_required()]`.
    private func guardNames(_ expression: SyntaxNode) -> [String] {
        switch expression.kind {
        case .name, .attribute:
            return expression.dottedName.map { [aliases.canonicalize($0)] } ?? []
        case .call:
            return (expression.callee.map(guardNames) ?? []) + expression.callArguments.flatMap(guardNames)
        case .list, .tuple:
            return expression.children.flatMap(guardNames)
        case .keyword:
            return expression.children.flatMap(guardNames)
        default:
            return []
        }
    }

    /// `@X.route(...)`, `@X.get("/p")`, `@X.before_request`.
    private func isRouteDecorator(_ decorator: SyntaxNode) -> Bool {
        let expression = decorator.children.first ?? decorator
        let callee = expression.kind == .call ? expression.callee : expression
        guard let callee, callee.kind == .attribute, let method = callee.text else { return false }
        return Self.routeMethods.contains(method) || ["before_request", "before_app_request"].contains(method)
    }

    /// FastAPI's `Depends(x)` / `Security(x)`: the framework fills the value by running `x`.
    private static func isDependency(_ node: SyntaxNode) -> Bool {
        node.kind == .call && ["Depends", "Security"].contains(node.callee?.dottedName?.split(separator: ".").last ?? "")
    }

    /// The resolved names of a class's bases.
    private func bases(of cls: SyntaxNode) -> [String] {
        cls.children[2].children.compactMap { $0.dottedName.map(aliases.canonicalize) }
    }

    /// The guard names of a definition's decorators (`permission_required` of `@permission_required("x")`).
    private func decoratorGuards(of definition: SyntaxNode) -> [String] {
        decorators(of: definition).flatMap { guardNames($0.children.first ?? $0) }
    }

    private func decorators(of def: SyntaxNode) -> [SyntaxNode] {
        def.children.first.map { $0.kind == .decorators ? $0.children : [] } ?? []
    }

    private func parameterNames(_ def: SyntaxNode) -> [String] {
        guard def.children.count > 2 else { return [] }
        return def.children[2].children.filter { $0.kind == .parameter }.compactMap(\.text)
    }

    /// Parameters whose default is a FastAPI dependency: the framework fills them, not the client.
    private func dependencyParameters(_ def: SyntaxNode) -> Set<String> {
        guard def.children.count > 2 else { return [] }
        return Set(
            def.children[2].children.filter { parameter in
                guard parameter.kind == .parameter else { return false }
                var found = false
                parameter.walk { node in
                    found = Self.isDependency(node)
                    return !found
                }
                return found
            }.compactMap(\.text))
    }

    private func imports(_ root: SyntaxNode, prefixes: [String]) -> Bool {
        root.children.contains { statement in
            let modules: [String] =
                statement.kind == .import
                ? statement.children.compactMap(\.text)
                : statement.kind == .importFrom ? [statement.text ?? ""] : []
            return modules.contains { module in prefixes.contains { module == $0 || module.hasPrefix($0 + ".") } }
        }
    }
}
