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
    init(body: PyNode, supplied parameters: Set<String>, aliases: ImportAliases) {
        self.init()
        var supplied = parameters
        var visited = 0
        // A handler body is a few hundred nodes; a generated giant one is read up to a bound.
        body.walk { node in
            visited += 1
            guard visited < 50_000 else { return false }
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
                if let value = node.children.last, Self.isSupplied(value, supplied) {
                    for target in node.children.dropLast() where target.kind == .name { supplied.insert(target.text ?? "") }
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
                if Self.loadsByKey(node, supplied) { objectLoads.append(node.range.start.line) }
            default:
                break
            }
            return true
        }
    }

    /// Whether `value` carries something the client sent: a supplied name or the request.
    static func isSupplied(_ value: PyNode, _ supplied: Set<String>) -> Bool {
        var found = false
        value.walk { node in
            if found { return false }
            switch node.kind {
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
    static func loadsByKey(_ call: PyNode, _ supplied: Set<String>) -> Bool {
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
            let text = sql.normalizedSource.lowercased()
            let keyed = text.contains("where") && text.contains("id")
            return keyed && call.callArguments.contains { isSupplied($0, supplied) }
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

    /// `Note.id`, `Note.user_id`: a column that is a key.
    private static func keyed(_ node: PyNode) -> Bool {
        node.kind == .attribute && isKeyName(node.text ?? "")
    }
}
