/// The package graph a lockfile records, used to say which dependencies are direct and by
/// which path a transitive one is pulled in.
struct DependencyGraph {
    /// Display names, one per node.
    private(set) var names: [String] = []
    private(set) var edges: [[Int]] = []

    mutating func addNode(_ name: String) -> Int {
        names.append(name)
        edges.append([])
        return names.count - 1
    }

    mutating func addEdge(from: Int, to: Int) {
        guard from != to, names.indices.contains(from), names.indices.contains(to) else { return }
        edges[from].append(to)
    }

    /// Nodes nothing depends on: the best guess at direct dependencies when a lockfile does
    /// not list the project's own requirements (poetry, pdm, composer, yarn v1).
    var unreferenced: [Int] {
        var referenced = [Bool](repeating: false, count: names.count)
        for list in edges { for to in list { referenced[to] = true } }
        return names.indices.filter { !referenced[$0] }
    }

    /// Paths longer than this are shown by their first `pathHead` names, an ellipsis and their
    /// last `pathTail`: a chain of n packages would otherwise hold n²/2 names (a 1.4 MB yarn.lock
    /// took 3.2 GiB), and a reader needs the direct dependency and the last links, not every one.
    static let pathLimit = 8
    static let pathHead = 4
    static let pathTail = 3
    /// Stands for the names left out of a long path.
    static let elided = "…"

    /// For each node, the shortest path from one of `direct` down to it (names, the node's own
    /// last; a long one shortened, see `pathLimit`), or nil when no direct dependency reaches it.
    /// Breadth-first, so the path is shortest and ties go to the direct dependency listed first.
    /// Time and memory linear in the graph.
    func paths(from direct: [Int]) -> [[String]?] {
        var parent = [Int](repeating: -2, count: names.count)
        var depth = [Int](repeating: 0, count: names.count)
        // The node at index `pathHead - 1` of each node's path (the last one a shortened path keeps from the top).
        var anchor = [Int](repeating: -1, count: names.count)
        var queue: [Int] = []
        queue.reserveCapacity(names.count)
        for node in direct where names.indices.contains(node) && parent[node] == -2 {
            parent[node] = -1
            anchor[node] = Self.pathHead == 1 ? node : -1
            queue.append(node)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for next in edges[node] where parent[next] == -2 {
                parent[next] = node
                depth[next] = depth[node] + 1
                anchor[next] = depth[next] == Self.pathHead - 1 ? next : anchor[node]
                queue.append(next)
            }
        }
        func walk(from node: Int, steps: Int) -> [String] {
            var path: [String] = []
            var cursor = node
            while cursor >= 0, path.count < steps {
                path.append(names[cursor])
                cursor = parent[cursor]
            }
            return path.reversed()
        }
        var result = [[String]?](repeating: nil, count: names.count)
        for node in names.indices where parent[node] != -2 {
            if depth[node] < Self.pathLimit {
                result[node] = walk(from: node, steps: Self.pathLimit)
            } else {
                result[node] = walk(from: anchor[node], steps: Self.pathHead) + [Self.elided] + walk(from: node, steps: Self.pathTail)
            }
        }
        return result
    }
}

extension Dependency {
    /// Applies a graph path: direct when the path has one element, transitive otherwise.
    mutating func apply(path: [String]?) {
        guard let path else {
            isDirect = false
            self.path = []
            return
        }
        isDirect = path.count == 1
        self.path = path
    }
}
