/// Validation of assignment, deletion and loop targets (CPython rejects these at parse time).
extension PyParser {
    /// Where a target appears; decides which shapes are allowed and how errors read.
    enum TargetContext {
        case assign, augmented, annotated, delete, loop, with

        var verb: String {
            switch self {
            case .delete: return "delete"
            case .augmented: return "illegal expression for augmented assignment:"
            case .annotated: return "illegal target for annotation:"
            default: return "assign to"
            }
        }
    }

    func checkTarget(_ n: SyntaxNode, _ ctx: TargetContext) throws {
        switch n.kind {
        case .name, .attribute, .subscript:
            return
        case .tuple, .list:
            if ctx == .augmented || ctx == .annotated {
                if ctx == .annotated && n.kind == .tuple {
                    throw error("only single target (not tuple) can be annotated", .invalidTarget, at: n.range.start)
                }
                throw error("\(ctx.verb) \(n.kind == .tuple ? "tuple" : "list")", .invalidTarget, at: n.range.start)
            }
            for c in n.children { try checkTarget(c, ctx) }
        case .starred where ctx != .delete && ctx != .augmented && ctx != .annotated:
            try checkTarget(n.children[0], ctx)
        default:
            if isWildcard(n) { return }
            let what = PyParser.describe(n)
            if ctx == .augmented || ctx == .annotated {
                throw error("\(ctx.verb) \(what)", .invalidTarget, at: n.range.start)
            }
            throw error("cannot \(ctx.verb) \(what)", .invalidTarget, at: n.range.start)
        }
    }

    /// CPython's wording for an expression kind in target errors.
    static func describe(_ n: SyntaxNode) -> String {
        switch n.kind {
        case .call: return "function call"
        case .string, .bytes, .integer, .float, .imaginary, .ellipsis: return "literal"
        case .true: return "True"
        case .false: return "False"
        case .none: return "None"
        case .joinedStr: return "f-string expression"
        case .binOp, .unaryOp: return "expression"
        case .boolOp: return "expression"
        case .compare: return "comparison"
        case .lambda: return "lambda"
        case .ifExp: return "conditional expression"
        case .namedExpr: return "named expression"
        case .await: return "await expression"
        case .yield, .yieldFrom: return "yield expression"
        case .dict: return "dict literal"
        case .set: return "set display"
        case .listComp: return "list comprehension"
        case .setComp: return "set comprehension"
        case .dictComp: return "dict comprehension"
        case .generatorExp: return "generator expression"
        case .starred: return "starred"
        default: return n.kind.rawValue
        }
    }
}
