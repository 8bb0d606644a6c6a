import PythonSyntax

/// Guards: what a condition proves about the values it tests, on the path where it holds (or
/// fails). `if x in ALLOWED:`, `if not x.isdigit(): return`, `if re.fullmatch(r"[a-z]+", x):`,
/// `if is_safe(x):` (a rule's sanitizer used as a check), and for path rules a prefix check on a
/// normalised path. Because branches that end (`return`, `raise`, `abort()`) drop out of the merge,
/// a guard counts exactly on the paths it dominates.
extension TaintAnalyzer {
    mutating func refine(_ test: SyntaxNode, truthy: Bool) {
        let c = test.children
        switch test.kind {
        case .unaryOp where test.text == "not" && c.count == 1:
            refine(c[0], truthy: !truthy)
        case .boolOp:
            if (test.text == "and") == truthy {
                // All operands hold after a true `and`; none after a false `or`.
                for operand in c { refine(operand, truthy: truthy) }
            } else {
                // After a false `and` (a true `or`) one operand failed (held), which one is unknown:
                // what every case proves holds (`if (u or html) and not is_safe(u): u = "/"`).
                let before = state
                var proven: ScopeState? = nil
                for operand in c {
                    state = before
                    refine(operand, truthy: truthy)
                    proven = proven.map { ScopeState.join($0, state) } ?? state
                }
                state = proven ?? before
            }
        case .name:
            // `ok = not ok` must not refine itself forever: the condition is taken out while used.
            if let name = test.text, let condition = conditions.removeValue(forKey: name) {
                refine(condition, truthy: truthy)
                conditions[name] = condition
            } else if !truthy {
                // A false value ('', None, 0, an empty container) carries no attacker text.
                clean(test, to: .clean)
            }
        case .namedExpr where c.count == 2:
            refine(c[1], truthy: truthy)
        case .compare where c.count == 2:
            refineComparison(test, truthy: truthy)
        case .call:
            if truthy { refineCheck(test) }
        default:
            break
        }
    }

    private mutating func refineComparison(_ test: SyntaxNode, truthy: Bool) {
        let c = test.children
        guard let op = test.text else { return }
        let holds = ["in", "==", "is"].contains(op) ? truthy : (["not in", "!=", "is not"].contains(op) ? !truthy : nil)
        if holds == true {
            // `x in ALLOWED`, `x == "a"`: x is one of the trusted values.
            let right = peekValue(c[1])
            if !right.isTainted {
                clean(c[0], to: op == "==" || op == "is" ? right : .clean)
                if patterns.isRequestRule { cleanURLOfHost(c[0]) }
            }
            let left = peekValue(c[0])
            if op == "==" || op == "is", !left.isTainted {
                clean(c[1], to: left)
                if patterns.isRequestRule { cleanURLOfHost(c[1]) }
            }
        }
        // `os.path.commonpath([base, p]) == base`: p is under base.
        if (op == "==" && truthy) || (op == "!=" && !truthy), patterns.isPathRule {
            // JavaScript's prefix check, `p.indexOf(base) === 0`, on a normalised `p`.
            for (side, other) in [(c[0], c[1]), (c[1], c[0])] {
                guard case .integer(0)? = peekConstant(other), side.kind == .call, let callee = side.children.first,
                    callee.kind == .attribute, callee.text == "indexOf", let path = callee.children.first,
                    peekValue(path).isNormalizedPath
                else { continue }
                clean(path, to: .clean)
            }
            // `p.parent == base` (`p.absolute().parent`, `p.resolve().parent`): p is one name in
            // base, whatever was joined to it (a `..` or a separator changes the parent).
            if c.count == 2, !peekValue(c[1]).isTainted || !peekValue(c[0]).isTainted {
                for side in c where side.kind == .attribute && side.text == "parent" {
                    guard var path = side.children.first else { continue }
                    if path.kind == .call, let callee = path.children.first, callee.kind == .attribute,
                        callee.text == "absolute" || callee.text == "resolve", let base = callee.children.first
                    {
                        path = base
                    }
                    clean(path, to: .clean)
                }
            }
            for side in c where side.kind == .call {
                guard let callee = side.children.first?.dottedName,
                    index.aliases.canonicalize(callee).hasSuffix("commonpath"),
                    let list = side.children.dropFirst().first
                else { continue }
                for element in list.children { clean(element, to: .clean) }
            }
        }
    }

    /// SSRF rules: `urlparse(u).hostname in ALLOWED` (or `== HOST`; also through `p = urlsplit(u)`
    /// then `p.hostname`, and `host = p.hostname or ""`) pins the server `u` names, so `u` is
    /// clean for the request. `.netloc` counts too (userinfo and port included, it is stricter).
    private mutating func cleanURLOfHost(_ checked: SyntaxNode) {
        // Following values back walks the file: only where a host can be read at all.
        guard !index.identifiers.isDisjoint(with: RelevanceNames.requestGuardNames) else { return }
        let origins = ValueOrigins(root: index.root, assignments: index.scopeAssignments)
        for value in origins.values(of: checked) {
            var part = value
            if part.kind == .boolOp, part.text == "or", let first = part.children.first { part = first }
            guard part.kind == .attribute, let attribute = part.text, attribute == "hostname" || attribute == "netloc",
                let base = part.children.first
            else { continue }
            for parsed in origins.values(of: base) where parsed.kind == .call {
                guard let callee = parsed.children.first?.dottedName,
                    ["urllib.parse.urlparse", "urllib.parse.urlsplit"].contains(index.aliases.canonicalize(callee)),
                    let url = parsed.children.dropFirst().first, url.kind == .name
                else { continue }
                clean(url, to: .clean)
            }
        }
    }

    /// A call that, when true, vouches for its arguments.
    private mutating func refineCheck(_ call: SyntaxNode) {
        guard let callee = call.children.first else { return }
        if checksSecret(call) { state.isAuthenticated = true }
        let arguments = Self.arguments(of: call)
        if let checked = checkedArguments(call) {
            for argument in checked { clean(argument, to: .clean) }
            return
        }
        if callee.kind == .attribute, let method = callee.text, let base = callee.children.first {
            switch method {
            case "isdigit", "isalnum", "isalpha", "isnumeric", "isdecimal", "isidentifier":
                clean(base, to: .clean)
                return
            case "startswith", "is_relative_to", "startsWith":
                if patterns.isPathRule, peekValue(base).isNormalizedPath { clean(base, to: .clean) }
                return
            case "fullmatch" where !isFunctionCall(base, "re"):
                // A compiled pattern's full match: the value is exactly what the pattern allows.
                if let subject = arguments.first { clean(subject, to: .clean) }
                return
            default:
                break
            }
        }
        guard let dotted = callee.dottedName.map({ index.aliases.canonicalize($0) }) else { return }
        switch dotted {
        case "re.fullmatch", "re.match", "re.search":
            guard arguments.count >= 2, let regex = peekConstant(arguments[0]), case .string(let text) = regex else { return }
            if Self.regexConfines(text, fullMatch: dotted == "re.fullmatch", anchoredStart: dotted == "re.match") {
                clean(arguments[1], to: .clean)
            }
        case "isinstance":
            guard arguments.count == 2, let type = arguments[1].dottedName else { return }
            if ["int", "float", "bool", "uuid.UUID", "UUID"].contains(type) { clean(arguments[0], to: .clean) }
        default:
            break
        }
    }

    private func isFunctionCall(_ node: SyntaxNode, _ module: String) -> Bool {
        node.dottedName.map { index.aliases.canonicalize($0) == module } ?? false
    }

    /// Whether a regex used as a guard pins the whole value to characters that carry no syntax:
    /// anchored at both ends, and no `.`, `\S`, `\W`, `\D` or negated class that would let a
    /// quote, a slash or a space through.
    static func regexConfines(_ regex: String, fullMatch: Bool, anchoredStart: Bool) -> Bool {
        let startAnchored = fullMatch || anchoredStart || regex.hasPrefix("^") || regex.hasPrefix("\\A")
        let endAnchored = fullMatch || regex.hasSuffix("$") || regex.hasSuffix("\\Z") || regex.hasSuffix("\\z")
        guard startAnchored, endAnchored else { return false }
        var escaped = false
        var inClass = false
        var previous: Character = " "
        for ch in regex {
            if escaped {
                if "SWDsN".contains(ch) { return false }
                escaped = false
                previous = ch
                continue
            }
            switch ch {
            case "\\": escaped = true
            case "[":
                inClass = true
            case "^" where inClass && previous == "[":
                return false
            case "]": inClass = false
            case "." where !inClass: return false
            default: break
            }
            previous = ch
        }
        return true
    }

    /// Replaces the value of a name (or a `self.x` field) the guard vouches for.
    private mutating func clean(_ target: SyntaxNode, to value: AbstractValue) {
        switch target.kind {
        case .name:
            guard let name = target.text else { return }
            if value.isTainted { return }
            var cleaned = value
            cleaned.typeName = state[name]?.typeName
            state[name] = cleaned
        case .attribute where target.children.first?.kind == .name:
            guard let name = target.text, let base = target.children.first else { return }
            updatePart(of: base) { $0.members["." + name] = value }
        case .call:
            // `x.strip() in ALLOWED` vouches for nothing stored.
            break
        default:
            break
        }
    }

    /// Records what a `return`'s value vouches for: a check (a sanitizer of the rule used as a
    /// test, or a validator of the project) of parameters named as its arguments, or a test on
    /// what a sanitizer of the rule answered about parameters (`return not urlparse(url).netloc`,
    /// a project's own `is_safe_url`). A constant (`return False`) vouches for nothing and spoils
    /// nothing; any other value spoils all. `return True` counts as a test of what the sanitizers
    /// read so far when the function also returns False somewhere (``literalReturns``).
    mutating func noteReturnedCheck(_ value: SyntaxNode) {
        if value.kind == .false { literalReturns.insert(false) }
        if value.kind == .false || value.kind == .none { return }
        // `return True` after the checks that return False: true proves what the sanitizers read.
        if value.kind == .true { literalReturns.insert(true) }
        let checked = value.kind == .true ? sanitizedParameters : returnedChecks(value) ?? []
        returnChecks = returnChecks.map { $0.intersection(checked) } ?? checked
    }

    /// The parameters a true `value` proves clean; nil when it is no test (a string, a call that
    /// checks nothing).
    private mutating func returnedChecks(_ value: SyntaxNode) -> Set<Int>? {
        switch value.kind {
        case .call:
            guard let arguments = checkedArguments(value) else { return nil }
            return Set(arguments.compactMap { $0.kind == .name ? $0.text.flatMap(parameterNames.firstIndex(of:)) : nil })
        case .compare:
            return sanitizedParameters.union(testedURLParts(value))
        case .unaryOp where value.text == "not":
            return sanitizedParameters.union(testedURLParts(value))
        case .boolOp:
            // `a and b` holds when both do; `a or b` when either does.
            let parts = value.children.map { returnedChecks($0) }
            if value.text == "and" { return parts.reduce(into: Set<Int>()) { $0.formUnion($1 ?? []) } }
            return parts.reduce(nil as Set<Int>?) { total, part in
                guard let part else { return [] }
                return total.map { $0.intersection(part) } ?? part
            }
        default:
            return nil
        }
    }

    /// Open redirect: the parameters whose parsed host or scheme a test reads (`not url_info.netloc`,
    /// `parts.scheme in ("http", "https")`, whatever parsed them: a project's own copy of `urlparse`
    /// too). A URL's destination is its host and scheme; a test of them is a test of where it leads.
    private mutating func testedURLParts(_ test: SyntaxNode) -> Set<Int> {
        guard patterns.isRedirectRule else { return [] }
        var parts: [SyntaxNode] = []
        test.walk { node in
            if node.kind == .attribute, let name = node.text, ["netloc", "scheme", "hostname", "host"].contains(name),
                let base = node.children.first
            {
                parts.append(base)
            }
            return true
        }
        return parts.reduce(into: Set<Int>()) { $0.formUnion(peekValue($1).whole.parameters) }
    }

    /// The arguments a true result of `call` proves clean: all of a rule's sanitizer used as a
    /// test, those a validator of the project vouches for; nil when the call checks nothing.
    private mutating func checkedArguments(_ call: SyntaxNode) -> [SyntaxNode]? {
        guard let callee = call.children.first else { return nil }
        let arguments = Self.arguments(of: call)
        if isSanitizer(call) {
            // `[c].includes(c)`: a list the input built checks nothing.
            return isMembershipInForeignList(call) ? nil : arguments
        }
        guard let target = resolve(callee, receiver: receiverValue(of: callee)), !target.summary.validates.isEmpty else {
            return nil
        }
        return target.summary.validates.map { $0 - target.shift }.filter { $0 >= 0 && $0 < arguments.count }.map { arguments[$0] }
    }

    /// A call's arguments, a keyword argument by its value.
    private static func arguments(of call: SyntaxNode) -> [SyntaxNode] {
        call.children.dropFirst().map { $0.kind == .keyword ? ($0.children.first ?? $0) : $0 }
    }

    /// What the analysis knows of a method call's receiver (`obj` of `obj.check(x)`).
    private mutating func receiverValue(of callee: SyntaxNode) -> AbstractValue? {
        callee.kind == .attribute ? callee.children.first.map { peekValue($0) } : nil
    }

    /// Whether a call compares a presented value with a secret in constant time, itself or in
    /// the helper it runs.
    private mutating func checksSecret(_ call: SyntaxNode) -> Bool {
        guard let callee = call.children.first else { return false }
        if let dotted = callee.dottedName, Self.secretComparisons.contains(index.aliases.canonicalize(dotted)) { return true }
        return resolve(callee, receiver: receiverValue(of: callee))?.summary.checksSecret ?? false
    }
}
