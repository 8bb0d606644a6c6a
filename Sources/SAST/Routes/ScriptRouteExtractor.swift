import SyntaxTree

/// The request handlers of one JavaScript or TypeScript file, as lowered: a route registered on
/// a router object the file makes from a web framework (`app.get("/p", handler)` where
/// `app = express()`, `router = express.Router()`, Koa's `new Router()`, `fastify()`, Hono's
/// `new Hono()`), the handler being the function passed last (an arrow or a function
/// expression, hoisted by the lowering, or a function the file names). Identity by evidence: a
/// receiver is a router only when its value is such a constructor's, by import.
struct ScriptRouteExtractor {
    let file: String
    let aliases: ImportAliases
    /// The names the file's imports bind under their own name (`const express = require("express")`:
    /// `express`), which ``aliases`` leaves out (``FileModel/importedModules``).
    let imported: Set<String>

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
                column: function.range.start.column, path: path)
            handler.endLine = function.range.end.line
            handler.methods = verb == "all" ? [] : [verb.uppercased()]
            out.append(handler)
            return true
        }
        return out
    }
}
