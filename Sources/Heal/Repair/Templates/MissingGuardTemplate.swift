import PythonSyntax

/// Inserts an early return before a line that fails on an empty or None value: `if not xs:` /
/// `return None` before `return sum(xs) / len(xs)`, `if section is None:` / `return None` before
/// `return int(section.get("port"))`.
///
/// The guarded names are the ones the line uses in a way that fails on such a value: it
/// dereferences them (`x.attr`, `x(…)`, `x[i]`), iterates over them, passes them to a call or
/// divides by them. Of those, a parameter is guarded with `if not x:` (empty or None; `if x is
/// None:` when the line only reads an attribute of it or calls it, which fails on None alone), and
/// a local with `if x is None:` when it may hold None: it is assigned `None`, or the result of a
/// call that returns None when it finds nothing (`d.get(k)`, a call given a `None` default,
/// `re.match`, a function of the same file that may return None).
///
/// The guard returns the function's natural default, ranked in this order: the literals it
/// returns elsewhere, then `None`, `0`, `[]` and `""`, four values in all; a bare `return` in a
/// function that never returns a value.
public struct MissingGuardTemplate: RepairTemplate {
    /// `missing-guard`.
    public let name = "missing-guard"
    /// See ``RepairTemplates/standard``.
    public let prior: Double
    /// What the guard returns when the function itself suggests nothing.
    static let values = ["None", "0", "[]", "\"\""]
    /// Most values tried per guarded name.
    static let maximumValues = 4
    /// Most names guarded per line.
    static let maximumNames = 3
    /// Calls that return None when they find nothing, by the last part of the callee's name
    /// (`get` only without a default argument).
    static let optionalCalls: Set<String> = ["get", "match", "search", "fullmatch", "getenv", "which"]

    /// A template with `prior`.
    public init(prior: Double = 0.4) { self.prior = prior }

    /// A guard per guarded name and value, inserted before the statement starting on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        guard let function = file.enclosingFunction(ofLine: line), let statement = file.statement(startingOn: line),
            function.children[4].range.start.line > function.children[2].range.end.line,
            file.tokens[file.tokenIndex(atOrAfter: statement.range.start.offset)].text != "elif"
        else { return [] }
        let indentation = file.indentation(ofLine: line)
        let step = indentationStep(of: function, in: file)
        let at = file.offset(ofLine: line)
        let newline = file.lineBreak
        let returns = defaults(of: function, in: file).map { $0.isEmpty ? "return" : "return \($0)" }
        var out: [RepairEdit] = []
        for condition in conditions(in: file, function: function, line: line).prefix(Self.maximumNames) {
            for (rank, value) in returns.enumerated() {
                let guardText = "\(indentation)if \(condition):\(newline)\(indentation)\(step)\(value)\(newline)"
                let edit = SourceEdit(start: at, end: at, replacement: guardText)
                out.append(
                    RepairEdit(
                        line: line, edits: [edit], description: "line \(line): guard `if \(condition): \(value)`", rank: rank))
            }
        }
        return out
    }

    /// The guard conditions for the names `line` uses in a way that fails on an empty or None
    /// value, in order of first use: `not x` or `x is None`.
    func conditions(in file: RepairFile, function: SyntaxNode, line: Int) -> [String] {
        let parameters = Set(file.parameters(of: function))
        var order: [String] = []
        // Per name: whether some use fails on an empty value too, not only on None.
        var emptyFails: [String: Bool] = [:]
        for (name, noneOnly) in failingUses(in: file, line: line)
        where parameters.contains(name) || isOptionalLocal(name, in: file, function: function, before: line) {
            if emptyFails[name] == nil { order.append(name) }
            emptyFails[name] = (emptyFails[name] ?? false) || !noneOnly
        }
        return order.map { name in
            parameters.contains(name) && emptyFails[name] == true ? "not \(name)" : "\(name) is None"
        }
    }

    /// The plain names `line` uses in a way that fails on None, in source order, each with whether
    /// only None makes it fail (`x.attr`, `x(…)`) rather than emptiness too (`x[0]`, `len(x)`,
    /// `for v in x`, `t / x`).
    func failingUses(in file: RepairFile, line: Int) -> [(name: String, noneOnly: Bool)] {
        var uses: [(offset: Int, name: String, noneOnly: Bool)] = []
        func use(_ node: SyntaxNode, noneOnly: Bool) {
            guard node.kind == .name, let name = node.text, node.range.start.line == line,
                !RepairFile.receivers.contains(name)
            else { return }
            uses.append((node.range.start.offset, name, noneOnly))
        }
        for node in file.nodes(onLine: line) {
            switch node.kind {
            case .attribute: use(node.children[0], noneOnly: true)
            case .subscript: use(node.children[0], noneOnly: false)
            case .call:
                use(node.children[0], noneOnly: true)
                for argument in node.callArguments {
                    use([.keyword, .starred, .doubleStarred].contains(argument.kind) ? argument.children[0] : argument, noneOnly: false)
                }
            case .for, .asyncFor, .comprehension: use(node.children[1], noneOnly: false)
            case .binOp where ["/", "//", "%"].contains(node.text ?? "") && !ArithmeticOperatorTemplate.isText(node.children[0]):
                use(node.children[1], noneOnly: false)
            default: break
            }
        }
        return uses.sorted { $0.offset < $1.offset }.map { ($0.name, $0.noneOnly) }
    }

    /// Whether `name` is a local of `function`, bound before `line`, that some assignment may
    /// leave None.
    func isOptionalLocal(_ name: String, in file: RepairFile, function: SyntaxNode, before line: Int) -> Bool {
        var bound = false
        var optional = false
        for statement in function.children[4].children {
            statement.walk { node in
                var value: SyntaxNode?
                switch node.kind {
                case .assign where node.children.dropLast().contains { $0.kind == .name && $0.text == name }:
                    value = node.children.last
                case .annAssign where node.children[0].kind == .name && node.children[0].text == name:
                    value = node.children[2]
                case .namedExpr where node.children[0].text == name:
                    value = node.children[1]
                default: break
                }
                if let value {
                    bound = bound || node.range.start.line < line
                    optional = optional || mayBeNone(value, in: file)
                }
                return !RepairFile.scopeKinds.contains(node.kind)
            }
        }
        return bound && optional
    }

    /// Whether the expression `value` may evaluate to None.
    func mayBeNone(_ value: SyntaxNode, in file: RepairFile) -> Bool {
        switch value.kind {
        case .none: return true
        case .ifExp: return mayBeNone(value.children[0], in: file) || mayBeNone(value.children[2], in: file)
        case .boolOp: return value.children.contains { mayBeNone($0, in: file) }
        case .await: return mayBeNone(value.children[0], in: file)
        case .call:
            let callee = value.children[0]
            let last = callee.kind == .attribute ? callee.text : callee.kind == .name ? callee.text : nil
            let arguments = value.callArguments
            if let last, Self.optionalCalls.contains(last), last != "get" || arguments.count < 2 { return true }
            // A `None` default is what the call returns when it finds nothing: `next(it, None)`.
            if arguments.contains(where: { $0.kind == .none || ($0.kind == .keyword && $0.children[0].kind == .none) }) {
                return true
            }
            if callee.kind == .name, let name = callee.text { return mayReturnNone(functionNamed: name, in: file) }
            return false
        default: return false
        }
    }

    /// Whether the module-level function `name` of the file may return None: it has a bare
    /// `return` or `return None`, or its body may run off its end.
    func mayReturnNone(functionNamed name: String, in file: RepairFile) -> Bool {
        guard
            let function = file.module.root.children.last(where: {
                ($0.kind == .functionDef || $0.kind == .asyncFunctionDef) && $0.text == name
            }), !file.isGenerator(function)
        else { return false }
        if let last = function.children[4].children.last, ![.return, .raise].contains(last.kind) { return true }
        return file.returns(of: function).contains { $0.children.isEmpty || $0.children[0].kind == .none }
    }

    /// What a guard in `function` returns: the literals the function returns elsewhere, then the
    /// usual defaults, at most ``maximumValues``; only `""` (a bare `return`) for a function that
    /// returns no value.
    func defaults(of function: SyntaxNode, in file: RepairFile) -> [String] {
        let values = file.returns(of: function).compactMap { $0.children.first }.filter { !$0.isEmpty }
        guard !values.isEmpty, !file.isGenerator(function) else { return [""] }
        var out: [String] = []
        for value in values where Self.isLiteral(value, in: file) {
            let text = file.text(of: value)
            if !out.contains(text) { out.append(text) }
        }
        for value in Self.values where !out.contains(value) { out.append(value) }
        return Array(out.prefix(Self.maximumValues))
    }

    /// `None`, `True`, `False`, a number, a string or an empty display.
    static func isLiteral(_ node: SyntaxNode, in file: RepairFile) -> Bool {
        switch node.kind {
        case .none, .true, .false, .integer, .float, .string: true
        case .unaryOp: file.integerValue(node) != nil
        case .list, .dict, .tuple: node.children.isEmpty
        default: false
        }
    }

    /// One level of indentation as the function writes it: its body's indentation past its own.
    func indentationStep(of function: SyntaxNode, in file: RepairFile) -> String {
        let outer = file.indentation(ofLine: function.range.start.line)
        let inner = file.indentation(ofLine: function.children[4].range.start.line)
        return inner.hasPrefix(outer) && inner.count > outer.count ? String(inner.dropFirst(outer.count)) : "    "
    }
}
