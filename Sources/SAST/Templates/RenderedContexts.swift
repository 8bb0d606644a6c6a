import PythonSyntax

/// What one render call passes a template: its name as the call spells it and, for each variable,
/// whether the value is markup the application built safely.
public struct RenderedContext: Sendable, Hashable {
    /// The template's name (`"email_msg_template.html"`, `"orga/base.html"`).
    public var template: String
    /// Each variable the call passes, and whether its value is known to be safe markup: a literal,
    /// an escaping or sanitising call, a rendered template, a helper of the file that escapes.
    public var variables: [String: Bool]
    /// Whether the call also passes what the file does not show (`**options`, `locals()`, a
    /// parameter): any variable may then be among its values.
    public var passesUnknown = false
    /// The functions whose returned dict the call also passes (`**row_context(...)`,
    /// `context = build_context(...)`), by the last part of their names: resolved across the
    /// project by ``ContextBuilder/resolve(_:builders:)``.
    public var builders: [String] = []

    /// Whether the template file at `path` (relative to the scan root) is the one `template` names:
    /// the same path, or a path ending in `/` and the name (`app/templates/` + `mail/body.html`).
    public func names(_ path: String) -> Bool {
        Self.template(template, names: path)
    }

    /// Whether the template name `name` (as a render call or an `{% include %}` writes it) names
    /// the file at `path`.
    public static func template(_ name: String, names path: String) -> Bool {
        path == name || path.hasSuffix("/" + name)
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

    init(aliases: ImportAliases, root: SyntaxNode) {
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
    func contexts(in root: SyntaxNode) -> [RenderedContext] {
        var out: [RenderedContext] = []
        var tables: [Int: ScopeTable] = [:]
        visit(root, scope: root, tables: &tables, &out)
        return out
    }

    /// The functions of `root` that return a context: every `return` gives a dict literal, or a
    /// name the function fills with one and `name["key"] = value` (`def row_context(...): return
    /// {...}`), with what each key holds.
    func builders(in root: SyntaxNode) -> [ContextBuilder] {
        var out: [ContextBuilder] = []
        root.walk { node in
            guard node.kind == .functionDef || node.kind == .asyncFunctionDef, let name = node.text, let body = node.children.last
            else { return true }
            var returned: [SyntaxNode] = []
            Self.returns(in: body, into: &returned)
            guard !returned.isEmpty, returned.allSatisfy({ $0.kind == .dict || $0.kind == .name }) else { return true }
            let table = ScopeTable(node)
            var variables: [String: Bool] = [:]
            var seen: Set<String> = []
            var nested: [String] = []
            var known = true
            for value in returned {
                known = entries(of: value, table: table, seen: &seen, into: &variables, builders: &nested) && known
            }
            // A function returning what it does not fill with a dict returns no context it shows:
            // left out, it stays unknown to a view passing its result.
            if variables.isEmpty, nested.isEmpty, !(known && returned.contains(where: { $0.kind == .dict })) { return true }
            out.append(ContextBuilder(name: name, variables: variables, passesUnknown: !known, builders: nested))
            return true
        }
        return out
    }

    /// The values of the `return` statements of a function body, not of the functions nested in it.
    private static func returns(in node: SyntaxNode, into out: inout [SyntaxNode]) {
        for child in node.children {
            switch child.kind {
            case .functionDef, .asyncFunctionDef, .classDef, .lambda:
                continue
            case .return:
                if let value = child.children.first { out.append(value) } else { out.append(child) }
            default:
                returns(in: child, into: &out)
            }
        }
    }

    private func visit(_ node: SyntaxNode, scope: SyntaxNode, tables: inout [Int: ScopeTable], _ out: inout [RenderedContext]) {
        for child in node.children {
            if child.kind == .call, isRenderCall(child) {
                let key = scope.range.start.offset
                let table = tables[key] ?? ScopeTable(scope)
                tables[key] = table
                if let context = context(of: child, table: table) { out.append(context) }
            }
            let isFunction = child.kind == .functionDef || child.kind == .asyncFunctionDef
            visit(child, scope: isFunction ? child : scope, tables: &tables, &out)
        }
    }

    /// What one scope assigns, read in one walk: each name's values (`data = {...}`, `html = escape(x)`)
    /// and each name's keyed values (`data["subject"] = ...`), with the safety of names as found.
    /// Each name is judged once, so a file of names assigned from one another costs what it holds.
    final class ScopeTable {
        var values: [String: [SyntaxNode]] = [:]
        var keyed: [String: [(key: String, value: SyntaxNode)]] = [:]
        var safe: [String: Bool] = [:]

        init(_ scope: SyntaxNode) {
            scope.walk { statement in
                guard statement.kind == .assign, statement.children.count == 2 else { return true }
                let target = statement.children[0]
                let value = statement.children[1]
                if target.kind == .name, let name = target.text {
                    values[name, default: []].append(value)
                } else if target.kind == .subscript, target.children.count == 2, target.children[0].kind == .name,
                    let name = target.children[0].text, let key = RenderedContexts.constantString(target.children[1])
                {
                    keyed[name, default: []].append((key, value))
                }
                return true
            }
        }
    }

    private func isRenderCall(_ call: SyntaxNode) -> Bool {
        guard let callee = call.children.first else { return false }
        if let dotted = callee.dottedName, Self.renderFunctions.contains(aliases.canonicalize(dotted)) { return true }
        return callee.kind == .attribute && callee.text == "render" && callee.children.first?.kind == .call
    }

    static let renderFunctions: Set<String> = [
        "flask.render_template", "flask.templating.render_template", "django.shortcuts.render",
        "django.template.loader.render_to_string",
    ]

    private func context(of call: SyntaxNode, table: ScopeTable) -> RenderedContext? {
        guard let callee = call.children.first else { return nil }
        let arguments = Array(call.children.dropFirst())
        let positional = arguments.filter { $0.kind != .keyword && $0.kind != .doubleStarred }
        let keywords = arguments.filter { $0.kind == .keyword }
        func keyword(_ name: String) -> SyntaxNode? { keywords.first { $0.text == name }?.children.first }
        var name: String?
        var contextNode: SyntaxNode?
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
                if let key = argument.text, let value = argument.children.first { variables[key] = isSafe(value, table) }
            }
        }
        var seen: Set<String> = []
        var known = true
        var builders: [String] = []
        if let contextNode {
            known = entries(of: contextNode, table: table, seen: &seen, into: &variables, builders: &builders) && known
        }
        for argument in arguments where argument.kind == .doubleStarred {
            if let value = argument.children.first {
                known = entries(of: value, table: table, seen: &seen, into: &variables, builders: &builders) && known
            }
        }
        var context = RenderedContext(template: name, variables: variables)
        context.passesUnknown = !known
        context.builders = builders
        return context
    }

    /// The entries of a context: a dict literal, or a name the function fills with a literal and
    /// `name["key"] = value` statements (each name followed once); a call of a function (not
    /// `locals()` or `vars()`) adds its name to `builders`, whose returned context is looked up
    /// across the project. Returns whether every entry is known: a context from elsewhere (a
    /// parameter, `locals()`, a method's result) may hold any variable.
    private func entries(
        of node: SyntaxNode, table: ScopeTable, seen: inout Set<String>, into variables: inout [String: Bool], builders: inout [String]
    ) -> Bool {
        if node.kind == .call, let callee = node.children.first {
            guard let dotted = callee.dottedName, callee.kind == .name || callee.kind == .attribute else { return false }
            let canonical = aliases.canonicalize(dotted)
            if canonical == "dict" {
                // `dict(a=x, b=y)`: its keywords; a positional mapping is not followed.
                var known = true
                for argument in node.children.dropFirst() {
                    if argument.kind == .keyword, let key = argument.text, let value = argument.children.first {
                        variables[key] = (variables[key] ?? true) && isSafe(value, table)
                    } else {
                        known = false
                    }
                }
                return known
            }
            // `self.get_context()` is some class's method: not looked up by its name alone.
            guard !["locals", "vars", "globals"].contains(canonical), !dotted.hasPrefix("self."), !dotted.hasPrefix("cls.") else {
                return false
            }
            builders.append(FileIndex.lastSegment(canonical))
            return true
        }
        if node.kind == .dict {
            var known = true
            for pair in node.children {
                guard pair.kind == .keyValue, pair.children.count == 2, let key = Self.constantString(pair.children[0]) else {
                    known = false  // `{**base, ...}` or a computed key
                    continue
                }
                variables[key] = (variables[key] ?? true) && isSafe(pair.children[1], table)
            }
            return known
        }
        guard node.kind == .name, let name = node.text else { return false }
        guard seen.insert(name).inserted else { return true }
        let values = table.values[name] ?? []
        var known = !values.isEmpty
        for value in values {
            known = entries(of: value, table: table, seen: &seen, into: &variables, builders: &builders) && known
        }
        // Every assignment to a key must be safe.
        for (key, value) in table.keyed[name] ?? [] { variables[key] = (variables[key] ?? true) && isSafe(value, table) }
        return known
    }

    /// Whether `value` is markup the file shows is safe.
    private func isSafe(_ value: SyntaxNode, _ table: ScopeTable, depth: Int = 0) -> Bool {
        guard depth < 8 else { return false }
        switch value.kind {
        case .string, .none, .integer, .float, .true, .false:
            return true
        case .joinedStr:
            return value.children.allSatisfy { part in
                part.kind == .string || (part.children.first.map { isSafe($0, table, depth: depth + 1) } ?? false)
            }
        case .list, .tuple, .set:
            return value.children.allSatisfy { isSafe($0, table, depth: depth + 1) }
        case .dict:
            return value.children.allSatisfy { pair in
                pair.kind == .keyValue && pair.children.allSatisfy { isSafe($0, table, depth: depth + 1) }
            }
        case .binOp where value.text == "+":
            return value.children.allSatisfy { isSafe($0, table, depth: depth + 1) }
        case .ifExp where value.children.count == 3:
            return isSafe(value.children[1], table, depth: depth + 1) && isSafe(value.children[2], table, depth: depth + 1)
        case .call:
            guard let callee = value.children.first else { return false }
            if let dotted = callee.dottedName {
                if Self.safeBuilders.contains(aliases.canonicalize(dotted)) { return true }
                if callee.kind == .name, escapingHelpers.contains(dotted) { return true }
            }
            // A template rendered in place escapes what it renders (`template.render(**args)`).
            return callee.kind == .attribute && callee.text == "render"
        case .name:
            // Every value the function assigns to the name, judged once (a cycle is unsafe).
            guard let name = value.text else { return false }
            if let known = table.safe[name] { return known }
            table.safe[name] = false
            let assigned = table.values[name] ?? []
            let result = !assigned.isEmpty && assigned.allSatisfy { isSafe($0, table, depth: depth + 1) }
            table.safe[name] = result
            return result
        default:
            return false
        }
    }

    static func constantString(_ node: SyntaxNode) -> String? {
        guard node.kind == .string, case .string(let text)? = PyConstant(literal: node) else { return nil }
        return text
    }

    /// The canonical callees of the calls in `node`.
    private static func calls(in node: SyntaxNode, aliases: ImportAliases) -> [String] {
        var out: [String] = []
        node.walk { inner in
            if inner.kind == .call, let dotted = inner.children.first?.dottedName { out.append(aliases.canonicalize(dotted)) }
            return true
        }
        return out
    }
}
