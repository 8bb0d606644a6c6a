import PythonSyntax

/// Where the values of an expression come from (``ValueOriginClass``): the evidence
/// `confidence-from` raises a finding's confidence on.
///
/// The expression and every value ``ValueOrigins`` finds for its names, `self.attr`s and local
/// calls (followed again inside those values, a few rounds) are read part by part: a name that is
/// a parameter of a public function, a request object, a `.read()` or a `.recv()` call. Where a
/// chain ends in literals only, nothing is found. A part named in `unless` (a framework's own SQL
/// builder: `compiler`, `quote_name`) vetoes the whole answer.
struct ValueEvidence: Sendable {
    let root: SyntaxNode
    var rounds = 4
    /// Values read at most, whatever the rounds: a bound on pathological files.
    var maxValues = 64

    static let requestNames: Set<String> = ["request", "req"]
    static let requestCalls: Set<String> = [
        "get_argument", "get_arguments", "get_query_argument", "get_query_arguments", "get_body_argument",
    ]
    static let fileReads: Set<String> = ["read", "readline", "readlines", "read_text", "read_bytes"]
    /// Methods whose result is (part of) their receiver's data.
    static let passThrough: Set<String> = [
        "strip", "lstrip", "rstrip", "lower", "upper", "title", "capitalize", "casefold", "replace", "split",
        "rsplit", "splitlines", "partition", "rpartition", "join", "format", "encode", "decode", "get", "getlist",
        "pop", "values", "items", "keys", "copy", "zfill", "ljust", "rjust", "center", "__getitem__",
    ]
    static let socketReads: Set<String> = ["recv", "recvfrom", "recvmsg", "recv_into"]

    /// The origin classes of `nodes`' values; empty when one of them names an identifier in `unless`.
    func classes(of nodes: [SyntaxNode], unless: Set<String> = []) -> Set<ValueOriginClass> {
        let follow = ValueOrigins(root: root, maxSteps: 1)
        var out = Set<ValueOriginClass>()
        var seen = Set<[Int]>()
        var frontier = nodes
        var read = 0
        for _ in 0..<rounds where !frontier.isEmpty {
            var next: [SyntaxNode] = []
            for value in frontier where read < maxValues && seen.insert([value.range.start.offset, value.range.end.offset]).inserted {
                read += 1
                var vetoed = false
                // Receivers of methods that make new data (`conn.cursor().fetchone()`): a parameter
                // there is a handle, not the value.
                var handles: [SourceRange] = []
                let counted = Self.iteratedOnly(in: value)
                ValueOrigins.walkScope(value) { part in
                    if counted.contains(where: { $0.start <= part.range.start && part.range.end <= $0.end }) { return }
                    if let text = part.text, part.kind == .name || part.kind == .attribute, unless.contains(text) {
                        vetoed = true
                    }
                    if part.kind == .call, let callee = part.children.first, callee.kind == .attribute,
                        let method = callee.text, !Self.passThrough.contains(method), let receiver = callee.children.first
                    {
                        handles.append(receiver.range)
                    }
                    if let origin = classify(part),
                        origin != .parameter
                            || !handles.contains(where: { $0.start <= part.range.start && part.range.end <= $0.end })
                    {
                        out.insert(origin)
                    }
                    if part.kind == .name || part.kind == .attribute || part.kind == .call {
                        next.append(contentsOf: follow.values(of: part).dropFirst())
                    }
                }
                if vetoed { return [] }
            }
            frontier = next
        }
        return out
    }

    /// The iterables (and conditions) of comprehensions whose elements do not use the loop
    /// variables (`", ".join("?" for _ in params)`): they decide how many values, not what they hold.
    static func iteratedOnly(in value: SyntaxNode) -> [SourceRange] {
        var out: [SourceRange] = []
        value.walk { node in
            guard [.listComp, .setComp, .generatorExp, .dictComp].contains(node.kind) else { return true }
            let generators = node.children.filter { $0.kind == .comprehension }
            var targets = Set<String>()
            for generator in generators {
                generator.children.first?.walk { part in
                    if part.kind == .name, let text = part.text { targets.insert(text) }
                    return true
                }
            }
            var used = false
            for element in node.children where element.kind != .comprehension {
                element.walk { part in
                    if part.kind == .name, let text = part.text, targets.contains(text) { used = true }
                    return !used
                }
            }
            if !used { out += generators.flatMap { $0.children.dropFirst().map(\.range) } }
            return true
        }
        return out
    }

    /// The origin one part of a value shows by itself.
    private func classify(_ part: SyntaxNode) -> ValueOriginClass? {
        switch part.kind {
        case .name:
            guard let text = part.text else { return nil }
            if Self.requestNames.contains(text) { return .request }
            return isPublicParameter(text, at: part.range.start) ? .parameter : nil
        case .attribute:
            return part.text == "request" ? .request : nil
        case .call:
            guard let callee = part.children.first, callee.kind == .attribute, let method = callee.text else { return nil }
            if Self.requestCalls.contains(method) { return .request }
            if Self.fileReads.contains(method) { return .file }
            if Self.socketReads.contains(method) { return .socket }
            return nil
        default:
            return nil
        }
    }

    /// Whether `name` at `location` is a parameter (not `self`/`cls`) of the innermost enclosing
    /// function that has one so named, and that function is public (no leading `_`, dunders are).
    private func isPublicParameter(_ name: String, at location: SourceLocation) -> Bool {
        if Receivers.contains(name) { return false }
        let functions = root.enclosingDefinitions(containing: location).filter {
            $0.kind == .functionDef || $0.kind == .asyncFunctionDef
        }
        for function in functions.reversed() where function.children.count == 5 {
            // Defaults and annotations belong to the enclosing scope.
            if location < function.children[4].range.start { continue }
            guard function.children[2].children.contains(where: { $0.text == name }) else { continue }
            let functionName = function.text ?? ""
            return !functionName.hasPrefix("_") || (functionName.hasPrefix("__") && functionName.hasSuffix("__"))
        }
        return false
    }
}
