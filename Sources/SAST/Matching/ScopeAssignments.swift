import PythonSyntax
import Synchronization

/// What each scope of one file assigns to each name (``ValueOrigins``), read once per scope: a
/// `metavariable-value` asked at each of N statements used to walk the N statements of the module
/// again each time (issue 76 H13: N calls `f(a, b)` beside an Express route cost N²).
final class ScopeAssignments: Sendable {
    /// By scope (start, end, kind): the values each name is given, in the order a walk meets them.
    private let scopes = Mutex<[[Int]: [String: [SyntaxNode]]]>([:])
    /// How many scopes were read whole (for tests: once each, however many questions).
    private let readCount = Mutex(0)

    var scopesRead: Int { readCount.withLock { $0 } }

    /// The values `scope` assigns to `name`, `read` answering for the whole scope the first time.
    func values(_ name: String, in scope: SyntaxNode, read: (SyntaxNode) -> [String: [SyntaxNode]]) -> [SyntaxNode] {
        let key = [scope.range.start.offset, scope.range.end.offset, scope.kind.ordinal]
        if let known = scopes.withLock({ $0[key] }) { return known[name] ?? [] }
        // Read outside the mutex: the walk touches only the tree.
        let table = read(scope)
        readCount.withLock { $0 += 1 }
        scopes.withLock { $0[key] = table }
        return table[name] ?? []
    }
}
