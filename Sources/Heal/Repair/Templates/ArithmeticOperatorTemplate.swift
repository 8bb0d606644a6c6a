import PythonSyntax

/// Swaps an arithmetic operator within its precedence level (`+` ↔ `-`, `*` ↔ `/`, `/` ↔ `//`,
/// `//` ↔ `%`), in expressions and augmented assignments, so the tree keeps its shape.
public struct ArithmeticOperatorTemplate: RepairTemplate {
    /// `arithmetic-operator`.
    public let name = "arithmetic-operator"
    /// See ``RepairTemplates/standard``.
    public let prior: Double

    /// What each operator may have been meant as.
    static let swaps: [String: [String]] = [
        "+": ["-"], "-": ["+"], "*": ["/"], "/": ["*", "//"], "//": ["/", "%"], "%": ["//"],
    ]

    /// A template with `prior`.
    public init(prior: Double = 0.7) { self.prior = prior }

    /// One edit per alternative of each arithmetic operator on `line`.
    public func candidates(in file: RepairFile, line: Int) -> [RepairEdit] {
        var out: [RepairEdit] = []
        for node in file.nodes(onLine: line) {
            let spelling: String
            switch node.kind {
            case .binOp:
                // `"%s" % x` formats and `"a" + b` concatenates: no arithmetic to swap.
                guard let text = node.text, !node.children.contains(where: Self.isText) else { continue }
                spelling = text
            case .augAssign:
                guard let text = node.text, text.hasSuffix("=") else { continue }
                spelling = String(text.dropLast())
            default: continue
            }
            let between = file.operatorTokens(between: node.children[0], and: node.children[1])
            guard let token = between.first(where: { $0.text == node.text }), token.range.start.line == line else { continue }
            let suffix = node.kind == .augAssign ? "=" : ""
            // `n - 998244353` where `n % 998244353` was meant: a modulus written as a subtraction.
            let modulus = spelling == "-" && (file.integerValue(node.children[1]) ?? 0) >= 2 ? ["%"] : []
            for replacement in (Self.swaps[spelling] ?? []) + modulus {
                out.append(
                    file.replacing(token.range.start.offset, token.range.end.offset, with: replacement + suffix, line: line))
            }
        }
        return out
    }

    /// A string, or an expression built on one (`"%s" % x + y`).
    static func isText(_ node: SyntaxNode) -> Bool {
        switch node.kind {
        case .string, .joinedStr, .bytes: true
        case .binOp where ["+", "%", "*"].contains(node.text ?? ""): isText(node.children[0])
        default: false
        }
    }
}
