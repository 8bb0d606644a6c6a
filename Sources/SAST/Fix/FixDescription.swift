import PythonSyntax

/// What a fix does, in one line for people (a finding's fix, heal's summary of a rule fix): the
/// change told as a change of a call when the matched code and its rewrite are calls —
/// `Pass timeout=30 to requests.get`, `Drop verify=False from requests.post`,
/// `Call yaml.safe_load(text) instead of yaml.load(text, Loader=yaml.Loader)` — else
/// `Replace `old` with `new``, each side whole statements on one line. Never a cut fragment: code
/// too long to show is shortened by ``PythonSnippet/shortened(_:limit:)``, which keeps every
/// bracket and quote closed.
enum FixDescription {
    /// The longest argument or callee shown.
    static let partLength = 48
    /// The longest side of a `Replace … with …` or `Call … instead of …` shown.
    static let sideLength = 72

    /// The description of replacing `original` with `replacement`; both are code as it stands in
    /// the file, whose lines after the first start with `indentation` (the matched region's line's).
    static func describe(original: String, replacement: String, indentation: String) -> String {
        let before = statements(original, indentation: indentation)
        let after = statements(replacement, indentation: indentation)
        if let old = before.flatMap({ call($0.nodes) }), let new = after.flatMap({ call($0.nodes) }) {
            return describe(old, new)
        }
        let old = before.map(rendered) ?? PythonSnippet.oneLine(original)
        let new = after.map(rendered) ?? PythonSnippet.oneLine(replacement)
        return "Replace `\(shortened(old, sideLength))` with `\(shortened(new, sideLength))`"
    }

    /// A call: its callee and arguments, each rendered canonically (`name=value` for a keyword).
    struct Call {
        var callee: String
        var positional: [String]
        var keywords: [(name: String, text: String)]
    }

    private static func describe(_ old: Call, _ new: Call) -> String {
        guard old.callee == new.callee else {
            if old.positional == new.positional, old.keywords.map(\.text) == new.keywords.map(\.text) {
                return "Call \(shortened(new.callee, partLength)) instead of \(shortened(old.callee, partLength))"
            }
            return "Call \(shortened(text(of: new), sideLength)) instead of \(shortened(text(of: old), sideLength))"
        }
        var clauses: [Clause] = positionalChanges(old.positional, new.positional)
        for keyword in new.keywords {
            if let previous = old.keywords.first(where: { $0.name == keyword.name }) {
                if previous.text != keyword.text { clauses.append(.replace(keyword.text, previous.text)) }
            } else {
                clauses.append(.add(keyword.text))
            }
        }
        for keyword in old.keywords where !new.keywords.contains(where: { $0.name == keyword.name }) {
            clauses.append(.drop(keyword.text))
        }
        let callee = shortened(old.callee, partLength)
        guard let first = clauses.first else { return "Rewrite the call to \(callee)" }
        if clauses.count == 1 {
            switch first {
            case .add(let added): return "Pass \(shortened(added, partLength)) to \(callee)"
            case .drop(let dropped): return "Drop \(shortened(dropped, partLength)) from \(callee)"
            case .replace(let added, let dropped):
                return "Pass \(shortened(added, partLength)) instead of \(shortened(dropped, partLength)) to \(callee)"
            }
        }
        let parts = clauses.map { clause -> String in
            switch clause {
            case .add(let added): return "pass \(shortened(added, partLength))"
            case .drop(let dropped): return "drop \(shortened(dropped, partLength))"
            case .replace(let added, let dropped):
                return "pass \(shortened(added, partLength)) instead of \(shortened(dropped, partLength))"
            }
        }
        return "In \(callee), " + parts.dropLast().joined(separator: ", ") + " and " + parts[parts.count - 1]
    }

    /// One change to a call's arguments.
    enum Clause: Equatable {
        /// An argument passed that was not.
        case add(String)
        /// An argument no longer passed.
        case drop(String)
        /// An argument passed instead of another (new, old).
        case replace(String, String)
    }

    /// The positional arguments' changes, in order: a longest common subsequence is kept, and a
    /// dropped argument followed by an added one is one replacement.
    static func positionalChanges(_ old: [String], _ new: [String]) -> [Clause] {
        var common = Array(repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
        for i in stride(from: old.count - 1, through: 0, by: -1) {
            for j in stride(from: new.count - 1, through: 0, by: -1) {
                common[i][j] = old[i] == new[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var clauses: [Clause] = []
        var dropped: [String] = []
        var added: [String] = []
        func flush() {
            for index in 0..<max(dropped.count, added.count) {
                if index < dropped.count, index < added.count {
                    clauses.append(.replace(added[index], dropped[index]))
                } else if index < dropped.count {
                    clauses.append(.drop(dropped[index]))
                } else {
                    clauses.append(.add(added[index]))
                }
            }
            dropped = []
            added = []
        }
        var i = 0
        var j = 0
        while i < old.count || j < new.count {
            if i < old.count, j < new.count, old[i] == new[j] {
                flush()
                i += 1
                j += 1
            } else if j >= new.count || (i < old.count && common[i + 1][j] >= common[i][j + 1]) {
                dropped.append(old[i])
                i += 1
            } else {
                added.append(new[j])
                j += 1
            }
        }
        flush()
        return clauses
    }

    /// Statements parsed from code, with the code they were parsed from.
    struct Statements {
        /// The code, its lines after the first without the region's indentation.
        var code: [UInt8]
        /// The statements, in order.
        var nodes: [SyntaxNode]
    }

    /// The statements of `code` (its lines after the first without `indentation`), or nil when it
    /// does not parse as statements.
    static func statements(_ code: String, indentation: String) -> Statements? {
        let lines = code.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated().map {
            index, line in index > 0 && line.hasPrefix(indentation) ? line.dropFirst(indentation.count) : line
        }
        let text = lines.joined(separator: "\n")
        guard let module = try? PythonParser.parseModule(source: text, fileName: "fix"), !module.root.children.isEmpty else {
            return nil
        }
        return Statements(code: Array(text.utf8), nodes: module.root.children)
    }

    /// The call `statements` are when they are one call and nothing else.
    private static func call(_ statements: [SyntaxNode]) -> Call? {
        guard statements.count == 1, statements[0].kind == .exprStmt, let node = statements[0].children.first,
            node.kind == .call, let callee = node.callee
        else { return nil }
        var call = Call(callee: callee.normalizedSource, positional: [], keywords: [])
        for argument in node.callArguments {
            if argument.kind == .keyword, let name = argument.text, let value = argument.children.first {
                call.keywords.append((name, "\(name)=\(value.normalizedSource)"))
            } else {
                call.positional.append(argument.normalizedSource)
            }
        }
        return call
    }

    /// `statements` as written, each on one line, separated by `; `.
    private static func rendered(_ statements: Statements) -> String {
        statements.nodes.map { node in
            let range = max(0, node.range.start.offset)..<min(statements.code.count, node.range.end.offset)
            return PythonSnippet.oneLine(String(decoding: statements.code[range], as: UTF8.self))
        }.joined(separator: "; ")
    }

    /// `callee(arguments)`.
    private static func text(of call: Call) -> String {
        call.callee + "(" + (call.positional + call.keywords.map(\.text)).joined(separator: ", ") + ")"
    }

    private static func shortened(_ text: String, _ limit: Int) -> String { PythonSnippet.shortened(text, limit: limit) }
}
