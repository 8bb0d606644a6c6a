import Findings
import Foundation
import Languages
import SyntaxTree

/// The request handlers of one JavaScript or TypeScript file, as lowered: a route registered on
/// a router object the file makes from a web framework (`app.get("/p", handler)` where
/// `app = express()`, `router = express.Router()`, Koa's `new Router()`, `fastify()`, Hono's
/// `new Hono()`), the handler being the function passed last (an arrow or a function
/// expression, hoisted by the lowering, or a function the file names). Identity by evidence: a
/// receiver is a router only when its value is such a constructor's, by import. Next.js routes
/// by file name instead (``nextRoute(of:)``).
struct ScriptRouteExtractor {
    let file: String
    let aliases: ImportAliases
    /// The names the file's imports bind under their own name (`const express = require("express")`:
    /// `express`), which ``aliases`` leaves out (``FileModel/importedModules``).
    let imported: Set<String>
    /// The names the file's relative imports bind (``FileModel/relativeImports``: `users` →
    /// `.routes.users`).
    var relative: [String: String] = [:]

    /// What makes a router, by canonical callee (the module's default export, or its class).
    static let routerConstructors: Set<String> = [
        "express", "express.default", "express.Router", "express.default.Router", "@koa/router", "@koa/router.default",
        "koa-router", "koa-router.default", "fastify", "fastify.default", "hono.Hono",
    ]
    /// Methods that register a route for one HTTP method (`all`: every method).
    static let verbs: Set<String> = ["get", "post", "put", "delete", "patch", "head", "options", "all"]

    /// The modules those constructors come from (`express` of `express.Router`).
    static let routerModules = Set(routerConstructors.map { $0.split(separator: ".").first.map(String.init) ?? $0 })

    /// The handlers of `root`, a lowered module.
    func handlers(in root: SyntaxNode) -> [RouteHandler] {
        // A file in Next.js's places that exports no handler of its shapes may be another framework's.
        if let route = Self.nextRoute(of: file), case let handlers = nextHandlers(in: root, route: route), !handlers.isEmpty {
            return handlers
        }
        // Every script of a scan comes here: one that imports no web framework is not walked.
        func head(_ dotted: String) -> String { dotted.split(separator: ".").first.map(String.init) ?? dotted }
        guard
            aliases.canonical.values.contains(where: { Self.routerModules.contains(head($0)) })
                || !imported.isDisjoint(with: Self.routerModules)
        else { return [] }
        var routers: Set<String> = []
        var functions: [String: SyntaxNode] = [:]
        root.walk { node in
            switch node.kind {
            case .assign:
                if node.children.count == 2, let target = node.children[0].dottedName, let value = node.children.last,
                    value.kind == .call, let callee = value.callee?.dottedName,
                    // By evidence: the callee's name is an import's, not a function of the file's own.
                    aliases.resolve(head(callee)) != nil || imported.contains(head(callee)),
                    Self.routerConstructors.contains(aliases.canonicalize(callee))
                {
                    routers.insert(target)
                }
            case .functionDef, .asyncFunctionDef:
                if let name = node.text, functions[name] == nil { functions[name] = node }
            default:
                break
            }
            return true
        }
        guard !routers.isEmpty else { return [] }
        var out: [RouteHandler] = []
        // `parent.use("/prefix", child)`: a router of this file below the prefix (and its parent's),
        // a router another module exports below it (resolved with the project, ``RouteFacts``).
        var prefixes: [String: (prefix: String, parent: String)] = [:]
        let relativeModules = relativeImports()
        root.walk { node in
            guard node.kind == .call, let callee = node.callee, callee.kind == .attribute, callee.text == "use",
                let parent = callee.children.first?.dottedName, routers.contains(parent)
            else { return true }
            let arguments = Array(node.callArguments)
            guard arguments.count >= 2, arguments[0].kind == .string, let prefix = arguments[0].text, prefix.hasPrefix("/"),
                let mounted = arguments.last, mounted.kind == .name, let child = mounted.text
            else { return true }
            if routers.contains(child) {
                if prefixes[child] == nil { prefixes[child] = (prefix, parent) }
            } else if let module = relativeModules[child] ?? aliases.resolve(child) {
                var mount = RouteHandler(
                    file: file, name: "use " + child, group: "", receiver: parent, line: node.range.start.line,
                    column: node.range.start.column, path: prefix, kind: .urlTarget)
                mount.mounted = module + ".*"
                out.append(mount)
            }
            return true
        }
        func prefix(of router: String, depth: Int = 0) -> String {
            guard depth < 8, let (own, parent) = prefixes[router] else { return "" }
            return RoutePath.joined(prefix(of: parent, depth: depth + 1), own)
        }
        for index in out.indices { out[index].path = RoutePath.joined(prefix(of: out[index].receiver ?? ""), out[index].path ?? "") }
        root.walk { node in
            guard node.kind == .call, let callee = node.callee, callee.kind == .attribute, let verb = callee.text,
                Self.verbs.contains(verb), let receiver = callee.children.first?.dottedName, routers.contains(receiver)
            else { return true }
            let arguments = Array(node.callArguments)
            guard arguments.count >= 2, arguments[0].kind == .string, let path = arguments[0].text, path.hasPrefix("/"),
                let name = arguments.last?.text, arguments.last?.kind == .name, let function = functions[name]
            else { return true }
            var handler = RouteHandler(
                file: file, name: name, group: "\(file)#\(receiver)", receiver: receiver, line: function.range.start.line,
                column: function.range.start.column, path: RoutePath.joined(prefix(of: receiver), path))
            handler.endLine = function.range.end.line
            handler.methods = verb == "all" ? [] : [verb.uppercased()]
            out.append(handler)
            return true
        }
        return out
    }

    /// The project's modules this file's relative imports bind, by local name
    /// (`const users = require("./routes/users")` in `app.js`: `users` → `routes.users`): the
    /// file model's relative names, made absolute against this file's module as the project's
    /// view makes them (`ProjectView.absolute`).
    private func relativeImports() -> [String: String] {
        guard let module = Languages.language(ofFile: file)?.module(ofFile: file) else { return [:] }
        return relative.mapValues { ProjectView.absolute($0, module: module.name, isPackage: module.isPackage) }
    }

    /// The extensions of a Next.js route's file.
    static let nextExtensions = [".js", ".jsx", ".ts", ".tsx", ".mjs"]
    /// The methods a Next.js route handler exports by name (the App Router's `route.ts`).
    static let nextMethods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// The path Next.js serves `file` at, by its place in the tree (the framework routes by file
    /// name, not by a call): an API route of the Pages Router (`pages/api/users/[id].ts`:
    /// `/api/users/:id`, any method, its default export) or a route handler of the App Router
    /// (`app/api/users/[id]/route.ts`: `/api/users/:id`, one handler per exported method). Route
    /// groups `(name)` and parallel slots `@name` add no segment; a private folder `_name` is no
    /// route; `[...slug]` and `[[...slug]]` are one parameter. Nil for any other file.
    static func nextRoute(of file: String) -> (path: String, appRouter: Bool)? {
        guard let ext = nextExtensions.first(where: { file.hasSuffix($0) }) else { return nil }
        var parts = String(file.dropLast(ext.count)).split(separator: "/").map(String.init)
        let appRouter: Bool
        if let pages = parts.indices.dropLast().first(where: { parts[$0] == "pages" && parts[$0 + 1] == "api" }) {
            parts = Array(parts[(pages + 1)...])
            if parts.last == "index" { parts.removeLast() }
            appRouter = false
        } else if parts.last == "route", let app = parts.firstIndex(of: "app") {
            parts = Array(parts[(app + 1)..<(parts.count - 1)])
            appRouter = true
        } else {
            return nil
        }
        var segments: [String] = []
        for part in parts {
            if part.hasPrefix("_") { return nil }
            if (part.hasPrefix("(") && part.hasSuffix(")")) || part.hasPrefix("@") { continue }
            if part.hasPrefix("["), part.hasSuffix("]") {
                let name = part.trimmingCharacters(in: CharacterSet(charactersIn: "[].")).replacingOccurrences(of: "...", with: "")
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
                segments.append(":" + name)
            } else {
                segments.append(part)
            }
        }
        return ("/" + segments.joined(separator: "/"), appRouter)
    }

    /// The handlers of a Next.js route file: the Pages Router's default export (a function the
    /// file defines, any method), the App Router's functions exported under a method's name.
    private func nextHandlers(in root: SyntaxNode, route: (path: String, appRouter: Bool)) -> [RouteHandler] {
        var functions: [String: SyntaxNode] = [:]
        var bound: [String: String] = [:]
        for statement in root.children {
            switch statement.kind {
            case .functionDef, .asyncFunctionDef:
                if let name = statement.text { functions[name] = statement }
            case .assign:
                // `export default handler`, `export const GET = async (request) => ...` (hoisted).
                if statement.children.count == 2, statement.children[0].kind == .name, let target = statement.children[0].text,
                    statement.children[1].kind == .name, let value = statement.children[1].text
                {
                    bound[target] = value
                }
            default:
                break
            }
        }
        let exported: [(name: String, methods: [String])] =
            route.appRouter
            ? Self.nextMethods.sorted().map { ($0, [$0]) } : [("default", [])]
        return exported.compactMap { export in
            guard let function = functions[export.name] ?? bound[export.name].flatMap({ functions[$0] }) else { return nil }
            var handler = RouteHandler(
                file: file, name: function.text ?? export.name, group: "\(file)#next", receiver: nil,
                line: function.range.start.line, column: function.range.start.column, path: route.path)
            handler.endLine = function.range.end.line
            handler.methods = export.methods
            return handler
        }
    }
}
