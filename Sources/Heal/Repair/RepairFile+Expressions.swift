import PythonSyntax

/// Expression helpers the off-by-one, slice and initial-value templates share.
extension RepairFile {
    /// Kinds that bind tighter than `+`, so `node + 1` needs no parentheses.
    static let additiveSafeKinds: Set<PyNodeKind> = [
        .name, .attribute, .call, .subscript, .integer, .float, .string, .list, .dict, .set, .listComp,
        .setComp, .dictComp, .generatorExp, .await,
    ]

    /// The value of a decimal integer literal, or of `-` applied to one.
    func integerValue(_ node: PyNode) -> Int? {
        switch node.kind {
        case .integer: return node.text.flatMap { Int($0) }
        case .unaryOp where node.text == "-": return node.children.first.flatMap(integerValue).map { -$0 }
        default: return nil
        }
    }

    /// `node` plus `delta` as source: literals are folded (`3` → `4`, `-1` → `0`), anything else
    /// gets `+ 1` / `- 1`, parenthesised when it binds looser than `+` (`(a or b) - 1`).
    func shifted(_ node: PyNode, by delta: Int) -> String {
        if let value = integerValue(node) {
            let (sum, overflow) = value.addingReportingOverflow(delta)
            if !overflow { return String(sum) }
        }
        let text = self.text(of: node)
        let operand = needsParentheses(node) ? "(\(text))" : text
        return delta >= 0 ? "\(operand) + \(delta)" : "\(operand) - \(-delta)"
    }

    /// Whether `node + 1` would parse as something other than `(node) + 1`.
    func needsParentheses(_ node: PyNode) -> Bool {
        if Self.additiveSafeKinds.contains(node.kind) { return false }
        switch node.kind {
        case .binOp: return !["+", "-", "*", "/", "//", "%", "@", "**"].contains(node.text ?? "")
        case .unaryOp: return node.text == "not"
        default: return true
        }
    }
}
