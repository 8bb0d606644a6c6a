import PythonSyntax

/// Allow-lists: a membership check (`ALLOWED.includes(c)`, `KNOWN.has(c)`) vouches for its argument
/// only when the list is the program's own constant. A list built from the input itself
/// (`c.includes(c)`, `[c].includes(c)`, `new Set([req.query.x]).has(c)`, a list passed in by a
/// caller) holds whatever the attacker put in it, so the check proves nothing (issue 76, H9).
/// Python's `x in ALLOWED` is a comparison, refined where comparisons are (the list must not be
/// tainted there).
extension TaintAnalyzer {
    /// Methods that test whether their receiver holds their argument.
    static let membershipMethods: Set<String> = ["includes", "has"]

    /// Whether `call` is a membership test (``membershipMethods``) whose receiver is not the
    /// program's own constant: as a sanitizer it vouches for nothing.
    mutating func isMembershipInForeignList(_ call: SyntaxNode) -> Bool {
        guard let callee = call.children.first, callee.kind == .attribute, let method = callee.text,
            Self.membershipMethods.contains(method), let list = callee.children.first
        else { return false }
        // Taken together: the list holds no attacker data now, and it was written by the program.
        var budget = Self.constantLookups
        return peekValue(list).isTainted
            || !isProgramConstant(
                list, origins: ValueOrigins(root: index.root, maxSteps: 1, assignments: index.scopeAssignments), depth: 0, budget: &budget)
    }

    /// Whether `node` is a constant the program writes itself: literals; a list, tuple, set or
    /// object of constants; `new Set(...)`, `new Map(...)`, `Object.freeze(...)`, `Object.keys(...)`,
    /// `Object.values(...)` (Python's `set`, `frozenset`, `tuple`, `list`) of one; a name whose every
    /// assignment (a `const` binding, a module-level name, a class attribute) is one; a class or
    /// TypeScript enum of the file; a name an import binds (another module of the program or a
    /// package, never the request). A parameter, a call of anything else or a value read from an
    /// object is none.
    /// `budget`: the names it may still follow (each reads its scope): a hostile list of lists of
    /// names is not followed to the end, and what is not followed is no constant.
    private func isProgramConstant(_ node: SyntaxNode, origins: ValueOrigins, depth: Int, budget: inout Int) -> Bool {
        guard depth < Self.constantDepth else { return false }
        switch node.kind {
        case .string, .bytes, .integer, .float, .true, .false, .none:
            return true
        case .list, .tuple, .set:
            return node.children.allSatisfy { element in
                let value = element.kind == .starred ? (element.children.first ?? element) : element
                return isProgramConstant(value, origins: origins, depth: depth + 1, budget: &budget)
            }
        case .dict:
            return node.children.allSatisfy { entry in
                entry.children.allSatisfy { isProgramConstant($0, origins: origins, depth: depth + 1, budget: &budget) }
            }
        case .call:
            guard let callee = node.children.first?.dottedName, Self.constantConstructors.contains(callee) else { return false }
            return node.children.dropFirst().allSatisfy { isProgramConstant($0, origins: origins, depth: depth + 1, budget: &budget) }
        case .name, .attribute:
            if let root = node.dottedRoot, isImportedRoot(root) || state[root] == nil && model.relativeImports[root] != nil {
                return true
            }
            // A class or a TypeScript enum of the file (`Object.values(Role).includes(r)`): code.
            if node.kind == .name, let name = node.text, state[name] == nil, model.classes[name] != nil { return true }
            guard budget > 0 else { return false }
            budget -= 1
            let values = origins.values(of: node).dropFirst()
            // No assignment found: a parameter, or a value read off something else.
            guard !values.isEmpty else { return false }
            return values.allSatisfy { isProgramConstant($0, origins: origins, depth: depth + 1, budget: &budget) }
        default:
            return false
        }
    }

    /// Containers built from their arguments alone, by the spelling the call is written in.
    private static let constantConstructors: Set<String> = [
        "Set", "Map", "Array.of", "Object.freeze", "Object.keys", "Object.values", "set", "frozenset", "tuple", "list",
    ]

    /// How deeply nested a constant is followed (literals inside literals, names of names).
    private static let constantDepth = 8

    /// Names followed at most for one list (a constant's own name and the few it is built from).
    private static let constantLookups = 16
}
