import PythonSyntax

/// Expression helpers the off-by-one, slice and initial-value templates share.
extension RepairFile {
    /// Kinds that bind tighter than `+`, so `node + 1` needs no parentheses.
    static let additiveSafeKinds: Set<SyntaxKind> = [
        .name, .attribute, .call, .subscript, .integer, .float, .string, .list, .dict, .set, .listComp,
        .setComp, .dictComp, .generatorExp, .await,
    ]

    /// The value of a decimal integer literal, or of `-` applied to one.
    func integerValue(_ node: SyntaxNode) -> Int? {
        switch node.kind {
        case .integer: return node.text.flatMap { Int($0) }
        case .unaryOp where node.text == "-": return node.children.first.flatMap(integerValue).map { -$0 }
        default: return nil
        }
    }

    /// `node` plus `delta` as source: literals are folded (`3` → `4`, `-1` → `0`), and so is the
    /// literal a sum ends in (`i + 1` → `i + 2` or `i`, `n - 1` → `n`); anything else gets `+ 1` /
    /// `- 1`, parenthesised when it binds looser than `+` (`(a or b) - 1`).
    func shifted(_ node: SyntaxNode, by delta: Int) -> String {
        if let value = integerValue(node) {
            let (sum, overflow) = value.addingReportingOverflow(delta)
            if !overflow { return String(sum) }
        }
        if let folded = shiftedSum(node, by: delta) { return folded }
        let text = self.text(of: node)
        let operand = needsParentheses(node) ? "(\(text))" : text
        return delta >= 0 ? "\(operand) + \(delta)" : "\(operand) - \(-delta)"
    }

    /// `a ± k` (`k` a decimal literal) plus `delta` with the literal changed and the spelling
    /// around it kept: `n - 1` → `n - 2`, `i+1` → `i+2`; when the literal becomes 0 only `a` is
    /// left, with its parentheses (`(a or b) + 1` → `(a or b)`). Nil for anything else, or when
    /// the literal is parenthesised or the sum is continued with a backslash.
    func shiftedSum(_ node: SyntaxNode, by delta: Int) -> String? {
        guard Self.isSum(node), node.children[1].kind == .integer, let literal = integerValue(node.children[1]),
            let token = operatorTokens(between: node.children[0], and: node.children[1]).first,
            token.text == node.text
        else { return nil }
        let head = text(node.range.start.offset, token.range.start.offset)
        let gap = text(token.range.end.offset, node.children[1].range.start.offset)
        guard gap.allSatisfy({ $0 == " " || $0 == "\t" }), !head.contains("\\") else { return nil }
        let (sum, overflow) = (node.text == "+" ? literal : -literal).addingReportingOverflow(delta)
        guard !overflow, sum != Int.min else { return nil }
        if sum == 0 { return String(head.reversed().drop(while: \.isWhitespace).reversed()) }
        return head + (sum > 0 ? "+" : "-") + gap + String(sum.magnitude)
    }

    /// A `+` or `-` binary operation.
    static func isSum(_ node: SyntaxNode) -> Bool {
        node.kind == .binOp && (node.text == "+" || node.text == "-")
    }

    /// Whether `node + 1` would parse as something other than `(node) + 1`.
    func needsParentheses(_ node: SyntaxNode) -> Bool {
        if Self.additiveSafeKinds.contains(node.kind) { return false }
        switch node.kind {
        case .binOp: return !["+", "-", "*", "/", "//", "%", "@", "**"].contains(node.text ?? "")
        case .unaryOp: return node.text == "not"
        default: return true
        }
    }
}
