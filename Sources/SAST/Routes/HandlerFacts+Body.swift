import Foundation
import PythonSyntax

extension HandlerFacts {
    /// Names whose use refuses a request as unauthenticated or forbidden.
    static let denialNames: Set<String> = [
        "PermissionDenied", "Forbidden", "Unauthorized", "NotAuthenticated", "HTTPForbidden", "HTTPUnauthorized",
        "HTTP_401_UNAUTHORIZED", "HTTP_403_FORBIDDEN", "UNAUTHORIZED", "FORBIDDEN",
    ]
    /// Keyword names that select a stored object by its key.
    static func isKeyName(_ name: String) -> Bool {
        let lower = name.lowercased()
        // A session, token or code lookup authenticates the caller; it does not fetch their object.
        if ["session", "token", "key", "nonce", "otp", "code"].contains(where: lower.contains) { return false }
        return lower == "id" || lower == "pk" || lower == "uuid" || lower.hasSuffix("_id") || lower.hasSuffix("_pk")
            || lower.hasSuffix("id") && lower.count <= 8
    }

    /// Reads `body`, a handler's block. `supplied`: its parameters the client fills (path and
    /// query values); locals assigned from them or from the request join them in source order.
    /// `assignments`: whether to record what each local is assigned (``HandlerFacts/assignments``,
    /// for handlers; the project's other definitions do without).
    init(body: SyntaxNode, supplied parameters: Set<String>, aliases: ImportAliases, assignments recording: Bool = false) {
        self.init()
        var supplied = parameters
        // Locals holding text (`query = f"SELECT ..."`), for a query run through a variable.
        var texts: [String: SyntaxNode] = [:]
        // Every node once (the parser bounds nesting, so the sub-walks stay within its depth).
        body.walk { node in
            switch node.kind {
            case .if, .while, .assert:
                if let test = node.children.first { conditions.append(test.normalizedSource) }
            case .ifExp:
                if node.children.count > 1 { conditions.append(node.children[1].normalizedSource) }
            case .compare:
                comparisons.append(node.normalizedSource)
            case .keyword:
                comparisons.append(node.normalizedSource)
            case .assign, .annAssign:
                guard let value = node.children.last else { break }
                let targets = node.children.dropLast().filter { $0.kind == .name }.compactMap(\.text)
                if Self.isSupplied(value, supplied) {
                    supplied.formUnion(targets)
                } else if recording {
                    // Only what the client cannot set (`request.args.get("user_id", current_user.id)` can).
                    for target in targets { assignments[target, default: []].append(value.normalizedSource) }
                }
                if [.string, .joinedStr, .binOp, .call].contains(value.kind) {
                    for target in targets { texts[target] = value }
                }
            case .name:
                if let text = node.text {
                    names.insert(aliases.canonicalize(text))
                    if Self.denialNames.contains(text) { denies = true }
                }
            case .attribute:
                if let dotted = node.dottedName { names.insert(aliases.canonicalize(dotted)) }
                if Self.denialNames.contains(node.text ?? "") { denies = true }
            case .integer:
                if node.text == "401" || node.text == "403" { denies = true }
            case .call:
                if Self.loadsByKey(node, supplied, texts) {
                    objectLoads.append(node.range.start.line)
                    let sql = node.callArguments.first.flatMap { $0.kind == .name ? texts[$0.text ?? ""] : nil }
                    loadTexts.append(node.normalizedSource + (sql.map { "\n" + $0.normalizedSource } ?? ""))
                }
            default:
                break
            }
            return true
        }
    }

    /// What a request carries that the server set: the authenticated user and their session.
    static let serverIdentities = ["request.user", "self.request.user", "request.auth", "self.request.auth"]

    /// Whether `value` carries something the client sent: a supplied name or the request.
    static func isSupplied(_ value: SyntaxNode, _ supplied: Set<String>) -> Bool {
        var found = false
        value.walk { node in
            if found { return false }
            switch node.kind {
            case .attribute:
                // The authenticated user the framework attached (`request.user.profile`) is the
                // server's, not the client's.
                if let dotted = node.dottedName, Self.serverIdentities.contains(where: { dotted == $0 || dotted.hasPrefix($0 + ".") }) {
                    return false
                }
            case .name:
                if let text = node.text, supplied.contains(text) || text == "request" { found = true }
            case .call:
                if node.callee?.text == "get_argument" || node.callee?.text == "get_query_argument" { found = true }
            default:
                break
            }
            return !found
        }
        return found
    }

    /// Whether `call` loads a stored object by a client-supplied key: `M.query.get(x)`,
    /// `session.get(M, x)`, `filter_by(id=x)`, `M.objects.get(pk=x)`, `get_object_or_404(M, pk=x)`,
    /// `filter(M.id == x)`, `execute("... WHERE id = ?", (x,))`.
    static func loadsByKey(_ call: SyntaxNode, _ supplied: Set<String>, _ texts: [String: SyntaxNode] = [:]) -> Bool {
        guard let callee = call.callee else { return false }
        let method = callee.kind == .attribute ? callee.text ?? "" : callee.text ?? ""
        let base = callee.kind == .attribute ? callee.children.first?.dottedName ?? "" : ""
        let positional = call.callArguments.filter { $0.kind != .keyword && $0.kind != .starred && $0.kind != .doubleStarred }
        switch method {
        case "get", "get_or_404", "first_or_404":
            if base.hasSuffix("query"), let key = positional.first, isSupplied(key, supplied) { return true }
            if base.hasSuffix("session"), positional.count >= 2, isSupplied(positional[1], supplied) { return true }
        case "execute", "executemany", "raw":
            guard let sql = positional.first else { return false }
            let resolved = sql.kind == .name ? texts[sql.text ?? ""] ?? sql : sql
            return sqlLoadsByKey(resolved, parameters: positional.dropFirst().first, supplied)
        case "filter", "where":
            let compared = positional.contains { argument in
                guard argument.kind == .compare, argument.text == "==", argument.children.count == 2 else { return false }
                let (left, right) = (argument.children[0], argument.children[1])
                return keyed(left) && isSupplied(right, supplied) || keyed(right) && isSupplied(left, supplied)
            }
            if compared { return true }
        default:
            break
        }
        guard ["get", "filter", "filter_by", "get_object_or_404", "get_list_or_404", "first", "one"].contains(method) else { return false }
        return call.callArguments.contains { argument in
            argument.kind == .keyword && isKeyName(argument.text ?? "")
                && argument.children.first.map { isSupplied($0, supplied) } == true
        }
    }

    /// Whether the SQL `sql` selects by a key the client supplies: its `WHERE` part names a key
    /// column and formats in a supplied value (`{id}` of an f-string, or a supplied operand of a
    /// concatenation or `format`) or, with placeholders, the last parameter (where the key
    /// usually comes) is supplied. A query also restricted by a user/owner column bound to a
    /// server-side value is the caller's own.
    static func sqlLoadsByKey(_ sql: SyntaxNode, parameters: SyntaxNode?, _ supplied: Set<String>) -> Bool {
        let text = sql.normalizedSource.lowercased()
        guard let whereRange = text.range(of: "where", options: .backwards) else { return false }
        let clause = text[whereRange.upperBound...]
        guard clause.contains("id") else { return false }
        switch sql.kind {
        case .joinedStr:
            let formatted = clause.split(separator: "{").dropFirst().compactMap { $0.split(separator: "}").first }
            let names = formatted.flatMap { $0.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init) }
            if !Set(names).isDisjoint(with: supplied) { return true }
        case .binOp:
            // Only what is added after the `WHERE` selects.
            let operands = plusOperands(sql)
            if let at = operands.lastIndex(where: { $0.normalizedSource.lowercased().contains("where") }),
                operands[at...].contains(where: { $0.kind != .string && isSupplied($0, supplied) })
            {
                return true
            }
        case .call:
            if isSupplied(sql, supplied) { return true }
        default:
            break
        }
        guard let parameters else { return false }
        // `(a, b)`, `[a, b]`, `list(values) + [key]`: the last value of the last part.
        let tail = plusOperands(parameters).last ?? parameters
        let values = [.tuple, .list].contains(tail.kind) ? tail.children : [tail]
        guard let last = values.last, isSupplied(last, supplied) else { return false }
        let restricted =
            clause.range(of: #"(user|owner|author)(_?id)?\s*="#, options: .regularExpression) != nil
            && values.contains { $0.kind == .name && !isSupplied($0, supplied) }
        return !restricted
    }

    /// The operands of a chain of `+` (`a + b + c`: a, b, c); the node itself otherwise.
    static func plusOperands(_ node: SyntaxNode) -> [SyntaxNode] {
        guard node.kind == .binOp, node.text == "+", node.children.count == 2 else { return [node] }
        return plusOperands(node.children[0]) + plusOperands(node.children[1])
    }

    /// `Note.id`, `Note.user_id`: a column that is a key.
    private static func keyed(_ node: SyntaxNode) -> Bool {
        node.kind == .attribute && isKeyName(node.text ?? "")
    }
}
