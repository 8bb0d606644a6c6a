import PythonSyntax

/// Which of a file's functions (by position in ``FileModel/functions``) each one's calls may run,
/// as ``FileCalls`` follows calls. Built once per file: every taint rule orders its summaries with it.
struct CallGraph: Sendable {
    /// The names each function's calls use (`helper`, `run` of `self.run()`).
    let calleeNames: [Set<String>]
    /// The functions each function's calls may run (``FileCalls/mayRun(_:as:from:in:)``): by name
    /// in sorted order (a set's order changes from run to run), each name's functions in file order.
    let callees: [[Int]]
    /// The first function with each function's key: a redefinition counts as the same function.
    let keyOwner: [Int]
    /// Whether the file calls each function (``FileModel/isCalled(_:_:)``).
    let isCalled: [Bool]
    /// The functions whose calls may run each function: ``callees`` turned around, each caller
    /// once, in file order. Walking callers back from a set of functions is then linear in the
    /// edges (a chain of N forwarding functions is N steps, not N rounds of N).
    let callers: [[Int]]

    /// `calls`: what each function's calls use, when known; otherwise each function's body is read
    /// (and a call may run any function of its name).
    init(model: FileModel, index: FileIndex, calls: FileCalls?) {
        let functions = model.functions
        calleeNames = functions.map { calls?.names[$0.key] ?? Self.calleeNames(of: $0.node) }
        callees = zip(functions, calleeNames).map { caller, names in
            names.sorted().flatMap { name in
                (model.functionsByCallName[name] ?? []).filter { callee in
                    calls?.mayRun(callee, as: name, from: caller.key, in: model) != false
                }.map(\.index)
            }
        }
        var owners: [String: Int] = [:]
        keyOwner = functions.map { function in
            if let owner = owners[function.key] { return owner }
            owners[function.key] = function.index
            return function.index
        }
        isCalled = functions.map { model.isCalled($0, index) }
        var callers = [[Int]](repeating: [], count: functions.count)
        for (caller, targets) in callees.enumerated() {
            for callee in Set(targets).sorted() { callers[callee].append(caller) }
        }
        self.callers = callers
    }

    /// The names a function's calls use.
    static func calleeNames(of function: SyntaxNode) -> Set<String> {
        var out: Set<String> = []
        function.walk { node in
            if node.kind == .call, let callee = node.children.first, callee.kind == .name || callee.kind == .attribute,
                let name = callee.text
            {
                out.insert(name)
            }
            return true
        }
        return out
    }

    /// `roots` and the functions they call, directly or not, each key once, in the order found.
    func reachable(from roots: [FileModel.Function], in model: FileModel) -> [FileModel.Function] {
        var seen = [Bool](repeating: false, count: keyOwner.count)
        for root in roots { seen[keyOwner[root.index]] = true }
        var out = roots
        var queue = roots
        while let next = queue.popLast() {
            for callee in callees[next.index] where !seen[keyOwner[callee]] {
                seen[keyOwner[callee]] = true
                out.append(model.functions[callee])
                queue.append(model.functions[callee])
            }
        }
        return out
    }

    /// `functions` ordered so that, outside cycles, a function comes after those it calls.
    func calleesFirst(_ functions: [FileModel.Function]) -> [FileModel.Function] {
        // Each function's position in `functions` (-1: not among them).
        var position = [Int](repeating: -1, count: keyOwner.count)
        for (i, function) in functions.enumerated() { position[function.index] = i }
        // Sorted: the order of a cycle's functions decides what a bounded fixpoint reaches.
        func targets(_ i: Int) -> [Int] {
            callees[functions[i].index].compactMap { position[$0] >= 0 ? position[$0] : nil }.sorted()
        }
        var order: [FileModel.Function] = []
        var visited = [Bool](repeating: false, count: functions.count)
        for root in functions.indices where !visited[root] {
            // Iterative post-order: (function, its callees still to visit).
            visited[root] = true
            var stack: [(Int, [Int])] = [(root, targets(root))]
            while !stack.isEmpty {
                if let next = stack[stack.count - 1].1.popLast() {
                    guard !visited[next] else { continue }
                    visited[next] = true
                    stack.append((next, targets(next)))
                } else {
                    order.append(functions[stack.removeLast().0])
                }
            }
        }
        return order
    }
}
