import PythonSyntax

/// A Python constant the analysis folds: a variable overwritten with one is clean, and a branch
/// whose condition is one is pruned.
enum PyConstant: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case float(Double)
    case bool(Bool)
    case none

    /// The constant a literal node stands for; nil for non-literals and integers that overflow.
    init?(literal node: SyntaxNode) {
        switch node.kind {
        case .string: self = .string(node.text ?? "")
        case .true: self = .bool(true)
        case .false: self = .bool(false)
        case .none: self = .none
        case .integer:
            guard let value = node.text.flatMap(Self.integer) else { return nil }
            self = .integer(value)
        case .float:
            guard let value = node.text.flatMap(Double.init) else { return nil }
            self = .float(value)
        default: return nil
        }
    }

    private static func integer(_ text: String) -> Int? {
        let lower = text.lowercased()
        for (prefix, radix) in [("0x", 16), ("0o", 8), ("0b", 2)] where lower.hasPrefix(prefix) {
            return Int(lower.dropFirst(2), radix: radix)
        }
        return Int(lower)
    }

    /// Python's truth value of the constant.
    var isTruthy: Bool {
        switch self {
        case .string(let s): return !s.isEmpty
        case .integer(let i): return i != 0
        case .float(let d): return d != 0
        case .bool(let b): return b
        case .none: return false
        }
    }

    /// The key a dict entry or subscript uses for this constant (`'k'`, `1`).
    var key: String {
        switch self {
        case .string(let s): return "s:" + s
        case .integer(let i): return "i:\(i)"
        case .float(let d): return "f:\(d)"
        case .bool(let b): return b ? "i:1" : "i:0"
        case .none: return "none"
        }
    }

    /// `l op r` for the operators whose result is certain on constants; nil otherwise.
    static func fold(_ op: String, _ l: PyConstant, _ r: PyConstant) -> PyConstant? {
        switch (op, l, r) {
        case ("+", .string(let a), .string(let b)): return .string(a + b)
        case ("+", .integer(let a), .integer(let b)): return a.addingReportingOverflow(b).overflow ? nil : .integer(a + b)
        case ("-", .integer(let a), .integer(let b)): return a.subtractingReportingOverflow(b).overflow ? nil : .integer(a - b)
        case ("*", .integer(let a), .integer(let b)): return a.multipliedReportingOverflow(by: b).overflow ? nil : .integer(a * b)
        default: return nil
        }
    }

    /// The outcome of `l op r` for a comparison operator, when the constants decide it.
    static func compare(_ op: String, _ l: PyConstant, _ r: PyConstant) -> Bool? {
        switch op {
        case "==", "is": return l == r
        case "!=", "is not": return l != r
        default: break
        }
        switch (l, r) {
        case (.integer(let a), .integer(let b)):
            switch op {
            case "<": return a < b
            case "<=": return a <= b
            case ">": return a > b
            case ">=": return a >= b
            default: return nil
            }
        case (.string(let a), .string(let b)):
            switch op {
            case "in": return b.contains(a)
            case "not in": return !b.contains(a)
            default: return nil
            }
        default: return nil
        }
    }
}
