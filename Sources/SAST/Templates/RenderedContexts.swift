import PythonSyntax

/// What one render call passes a template: its name as the call spells it and, for each variable,
/// whether the value is markup the application built safely.
public struct RenderedContext: Sendable, Hashable {
    /// The template's name (`"email_msg_template.html"`, `"orga/base.html"`).
    public var template: String
    /// Each variable the call passes, and whether its value is known to be safe markup: a literal,
    /// an escaping or sanitising call, a rendered template, a helper of the file that escapes.
    public var variables: [String: Bool]

    /// Whether the template file at `path` (relative to the scan root) is the one `template` names:
    /// the same path, or a path ending in `/` and the name (`app/templates/` + `mail/body.html`).
    public func names(_ path: String) -> Bool {
        path == template || path.hasSuffix("/" + template)
    }
}

/// Finds the render calls of a Python file (Flask's `render_template`, Django's `render` and
/// `render_to_string`, Jinja2's `get_template(...).render(...)`) and what they pass, so that a
/// template's `|safe` on a value every view builds by escaping is not reported (issue 55).
/// Syntactic, within one function: a value is safe only when the file shows it is.
struct RenderedContexts {
    let aliases: ImportAliases
    /// Functions of the file by name (nested ones too): a helper that escapes builds safe markup.
    private var escapingHelpers: Set<String> = []

    /// Calls whose result is escaped or sanitised markup, a rendered template, or a URL.
    static let safeBuilders: Set<String> = [
        "html.escape", "markupsafe.escape", "markupsafe.Markup.escape", "flask.escape", "jinja2.escape",
        "django.utils.html.escape", "django.utils.html.conditional_escape", "django.utils.html.format_html",
        "django.utils.html.format_html_join", "django.utils.html.strip_tags", "bleach.clean", "nh3.clean",
        "flask.render_template", "django.template.loader.render_to_string", "django.urls.reverse", "flask.url_for",
        "tornado.escape.xhtml_escape",
    ]

    init(aliases: ImportAliases, root: PyNode) {
        self.aliases = aliases
        var helpers: Set<String> = []
        root.walk { node in
            if node.kind == .functionDef || node.kind == .asyncFunctionDef, let name = node.text,
                let body = node.children.last, Self.calls(in: body, aliases: aliases).contains(where: Self.safeBuilders.contains)
            {
                helpers.insert(name)
            }
            return true
        }
        escapingHelpers = helpers
    }

    /// The render calls of `root`, in source order, each read in its nearest enclosing function.
    func contexts(in root: PyNode) -> [RenderedContext] {
        var out: [RenderedContext] = []
        visit(root, scope: root, &out)
        return out
    }

    private func visit(_ node: PyNode, scope: PyNode, _ out: inout [RenderedContext]) {
        for child in node.children {
            if child.kind == .call, let context = context(of: child, scope: scope) { out.append(context) }
            let isFunction = child.kind == .functionDef || child.kind == .asyncFunctionDef
            visit(child, scope: isFunction ? child : scope, &out)
        }
    }

    private func context(of call: PyNode, scope: PyNode) -> RenderedContext? {
        guard let callee = call.children.first else { return nil }
        let arguments = Array(call.children.dropFirst())
        let positional = arguments.filter { $0.kind != .keyword && $0.kind != .doubleStarred }
        let keywords = arguments.filter { $0.kind == .keyword }
        func keyword(_ name: String) -> PyNode? { keywords.first { $0.text == name }?.children.first }
        var name: String?
        var contextNode: PyNode?
        var passesKeywords = false
        if let dotted = callee.dottedName {
            switch aliases.canonicalize(dotted) {
            case "flask.render_template", "flask.templating.render_template":
                name = positional.first.flatMap(Self.constantString) ?? keyword("template_name_or_list").flatMap(Self.constantString)
                passesKeywords = true
            case "django.shortcuts.render":
                name = positional.dropFirst().first.flatMap(Self.constantString) ?? keyword("template_name").flatMap(Self.constantString)
                contextNode = positional.dropFirst(2).first ?? keyword("context")
            case "django.template.loader.render_to_string":
                name = positional.first.flatMap(Self.constantString) ?? keyword("template_name").flatMap(Self.constantString)
                contextNode = positional.dropFirst().first ?? keyword("context")
            default:
                break
            }
        }
        // `env.get_template("x.html").render(...)`
        if name == nil, callee.kind == .attribute, callee.text == "render", let base = callee.children.first, base.kind == .call,
            base.children.first?.text == "get_template", let first = base.children.dropFirst().first
        {
            name = Self.constantString(first)
            contextNode = positional.first
            passesKeywords = true
        }
        guard let name else { return nil }
        var variables: [String: Bool] = [:]
        if passesKeywords {
            for argument in keywords {
                if let key = argument.text, let value = argument.children.first { variables[key] = isSafe(value, scope) }
            }
        }
        if let contextNode { entries(of: contextNode, scope: scope, into: &variables) }
        for argument in arguments where argument.kind == .doubleStarred {
            if let value = argument.children.first { entries(of: value, scope: scope, into: &variables) }
        }
        return RenderedContext(template: name, variables: variables)
    }

    /// The entries of a context: a dict literal, or a name the function fills with a literal and
    /// `name["key"] = value` statements.
    private func entries(of node: PyNode, scope: PyNode, into variables: inout [String: Bool]) {
        if node.kind == .dict {
            for pair in node.children where pair.kind == .keyValue && pair.children.count == 2 {
                if let key = Self.constantString(pair.children[0]) { variables[key] = isSafe(pair.children[1], scope) }
            }
            return
        }
        guard node.kind == .name, let name = node.text else { return }
        scope.walk { statement in
            guard statement.kind == .assign, statement.children.count == 2 else { return true }
            let target = statement.children[0]
            let value = statement.children[1]
            if target.kind == .name, target.text == name {
                entries(of: value, scope: scope, into: &variables)
            } else if target.kind == .subscript, target.children.count == 2, target.children[0].kind == .name,
                target.children[0].text == name, let key = Self.constantString(target.children[1])
            {
                // Every assignment to the key must be safe.
                variables[key] = (variables[key] ?? true) && isSafe(value, scope)
            }
            return true
        }
    }

    /// Whether `value` is markup the file shows is safe.
    private func isSafe(_ value: PyNode, _ scope: PyNode, depth: Int = 0) -> Bool {
        guard depth < 8 else { return false }
        switch value.kind {
        case .string, .none, .integer, .float, .true, .false:
            return true
        case .joinedStr:
            return value.children.allSatisfy {
                $0.kind == .string || ($0.children.first.map { isSafe($0, scope, depth: depth + 1) } ?? false)
            }
        case .list, .tuple, .set:
            return value.children.allSatisfy { isSafe($0, scope, depth: depth + 1) }
        case .dict:
            return value.children.allSatisfy { pair in
                pair.kind == .keyValue && pair.children.allSatisfy { isSafe($0, scope, depth: depth + 1) }
            }
        case .binOp where value.text == "+":
            return value.children.allSatisfy { isSafe($0, scope, depth: depth + 1) }
        case .ifExp where value.children.count == 3:
            return isSafe(value.children[1], scope, depth: depth + 1) && isSafe(value.children[2], scope, depth: depth + 1)
        case .call:
            guard let callee = value.children.first else { return false }
            if let dotted = callee.dottedName {
                if Self.safeBuilders.contains(aliases.canonicalize(dotted)) { return true }
                if callee.kind == .name, escapingHelpers.contains(dotted) { return true }
            }
            // A template rendered in place escapes what it renders (`template.render(**args)`).
            return callee.kind == .attribute && callee.text == "render"
        case .name:
            // Every value the function assigns to the name.
            guard let name = value.text else { return false }
            var assigned: [PyNode] = []
            scope.walk { statement in
                if statement.kind == .assign, statement.children.count == 2, statement.children[0].kind == .name,
                    statement.children[0].text == name
                {
                    assigned.append(statement.children[1])
                }
                return true
            }
            return !assigned.isEmpty && assigned.allSatisfy { isSafe($0, scope, depth: depth + 1) }
        default:
            return false
        }
    }

    private static func constantString(_ node: PyNode) -> String? {
        guard node.kind == .string, case .string(let text)? = PyConstant(literal: node) else { return nil }
        return text
    }

    /// The canonical callees of the calls in `node`.
    private static func calls(in node: PyNode, aliases: ImportAliases) -> [String] {
        var out: [String] = []
        node.walk { inner in
            if inner.kind == .call, let dotted = inner.children.first?.dottedName { out.append(aliases.canonicalize(dotted)) }
            return true
        }
        return out
    }
}
