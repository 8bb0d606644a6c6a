import SourcePositions

/// Small queries the rule engine needs over a tree.
extension SyntaxNode {
    /// Visits this node and its descendants in pre-order; return false from `visit` to skip a node's
    /// children.
    public func walk(_ visit: (SyntaxNode) throws -> Bool) rethrows {
        guard try visit(self) else { return }
        // By index: `for child in children` copies each child (three retains) before visiting it.
        for i in children.indices { try children[i].walk(visit) }
    }

    /// Every node of the subtree in pre-order.
    public var preorder: [SyntaxNode] {
        var out: [SyntaxNode] = []
        walk {
            out.append($0)
            return true
        }
        return out
    }

    /// `os.path.join` for a name or an attribute chain over a name; nil for anything else (calls,
    /// subscripts, literals in the chain).
    public var dottedName: String? {
        switch kind {
        case .name: return text
        case .attribute:
            guard let base = children.first?.dottedName, let text else { return nil }
            return base + "." + text
        default: return nil
        }
    }

    /// The innermost `def`/`async def` whose range contains `location`, or nil at module level.
    public func enclosingFunction(containing location: SourceLocation) -> SyntaxNode? {
        enclosingDefinitions(containing: location).last { $0.kind == .functionDef || $0.kind == .asyncFunctionDef }
    }

    /// Qualified name of the innermost function containing `location` (`Class.method`,
    /// `outer.inner`), or nil at module level. Fingerprints use it instead of line numbers.
    public func enclosingFunctionName(containing location: SourceLocation) -> String? {
        let chain = enclosingDefinitions(containing: location)
        guard let last = chain.lastIndex(where: { $0.kind == .functionDef || $0.kind == .asyncFunctionDef }) else {
            return nil
        }
        return chain[...last].compactMap(\.text).joined(separator: ".")
    }

    /// The nested defs and classes containing `location`, outermost first.
    public func enclosingDefinitions(containing location: SourceLocation) -> [SyntaxNode] {
        var out: [SyntaxNode] = []
        var current = self
        while true {
            // The smallest child holding `location`: in lowered JavaScript a made-up node (an absent
            // function's decorators or return type) spans the whole function, beside its body.
            var found: SyntaxNode?
            for child in current.children where child.range.contains(location) {
                if let best = found, best.range.end.offset - best.range.start.offset <= child.range.end.offset - child.range.start.offset {
                    continue
                }
                found = child
            }
            guard let next = found else { return out }
            if next.kind == .functionDef || next.kind == .asyncFunctionDef || next.kind == .classDef {
                out.append(next)
            }
            current = next
        }
    }
}

extension SyntaxNode {
    /// The callee of a ``SyntaxKind/call``; nil for other kinds.
    public var callee: SyntaxNode? { kind == .call ? children.first : nil }

    /// The arguments of a ``SyntaxKind/call`` (everything after the callee); empty for other kinds.
    public var callArguments: ArraySlice<SyntaxNode> { kind == .call ? children.dropFirst() : [] }

    /// The value of keyword argument `name` of a ``SyntaxKind/call`` (`shell` in `run(c, shell=True)`).
    public func keywordArgument(_ name: String) -> SyntaxNode? {
        callArguments.first { $0.kind == .keyword && $0.text == name }?.children.first
    }
}

extension SyntaxKind {
    /// Whether nodes of this kind are statements (they appear in ``module`` and ``block`` children).
    public var isStatement: Bool { Self.statementKinds.contains(self) }
}
