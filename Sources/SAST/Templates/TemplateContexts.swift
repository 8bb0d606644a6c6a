/// Each template's context across a project: what the views' render calls pass it, joined with
/// what each template that includes, extends or imports it hands it (``TemplateOutline``), that
/// template's own context computed first.
///
/// Computed once per template, referrers before the templates they reference (the reference
/// graph's strongly connected components in topological order), so a project costs about what
/// its references and contexts hold. A reference names a group of templates (every
/// `partial.html` of the project, when it writes `"partial.html"`): it hands its context to the
/// group once, and each member joins the group's context, so that N templates sharing one name
/// and including it cost N edges, not N² (issue 76 H14). A cycle of references (a comment
/// template including itself for the replies) is settled by rounds within its component, at
/// most ``maxRounds``; one that does not settle is unknown.
public struct TemplateContexts: Sendable {
    /// The context of each template, in the order given.
    public let contexts: [TemplateContext]
    /// The contexts joined to settle them (handed through a reference, or from a group to a
    /// member), for tests to see the work grows with the references and templates, not their product.
    let joins: Int

    /// Rounds within a cycle of references before its templates' contexts are judged unknown.
    static let maxRounds = 16

    /// The contexts of `templates` (paths relative to the scan root), whose outlines are
    /// `outlines` (nil: not a template), rendered by the project's `calls`.
    public init(templates: [String], outlines: [TemplateOutline?], calls: [RenderedContext]) {
        // Calls and templates by the last part of the names: a name is compared with the files
        // it may name, not with every file of the project.
        let callsByName = Dictionary(grouping: calls) { Self.lastPart($0.template) }
        let templatesByName = Dictionary(grouping: templates.indices.filter { outlines.indices.contains($0) && outlines[$0] != nil }) {
            Self.lastPart(templates[$0])
        }
        var contexts = templates.map { template in
            TemplateContext(calls: (callsByName[Self.lastPart(template)] ?? []).filter { $0.names(template) })
        }
        // The graph's nodes: the templates, then one group per name a reference writes.
        var groupOfName: [String: Int] = [:]
        var members: [[Int]] = []
        var referrers: [[(from: Int, reference: TemplateReference)]] = []
        var groupsOf: [[Int]] = Array(repeating: [], count: templates.count)
        var successors: [[Int]] = Array(repeating: [], count: templates.count)
        for (from, outline) in outlines.enumerated() where from < templates.count {
            for reference in outline?.references ?? [] {
                let group: Int
                if let known = groupOfName[reference.name] {
                    group = known
                } else {
                    group = members.count
                    groupOfName[reference.name] = group
                    let named = (templatesByName[Self.lastPart(reference.name)] ?? []).filter {
                        RenderedContext.template(reference.name, names: templates[$0])
                    }
                    members.append(named)
                    referrers.append([])
                    successors.append(named)
                    for to in named { groupsOf[to].append(group) }
                }
                referrers[group].append((from, reference))
                successors[from].append(templates.count + group)
            }
        }
        var groupContexts = Array(repeating: TemplateContext(), count: members.count)
        var joins = 0
        func handed(_ edge: (from: Int, reference: TemplateReference)) -> TemplateContext {
            joins += 1
            return outlines[edge.from]?.handed(through: edge.reference, from: contexts[edge.from]) ?? .unknown
        }
        for component in Self.components(successors) {
            let inComponent = Set(component)
            var inner: [(group: Int, edge: (from: Int, reference: TemplateReference))] = []
            var innerMembers: [(group: Int, to: Int)] = []
            for node in component {
                if node >= templates.count {
                    let group = node - templates.count
                    for edge in referrers[group] {
                        if inComponent.contains(edge.from) {
                            inner.append((group, edge))
                        } else {
                            groupContexts[group].join(handed(edge))
                        }
                    }
                } else {
                    for group in groupsOf[node] {
                        if inComponent.contains(templates.count + group) {
                            innerMembers.append((group, node))
                        } else {
                            joins += 1
                            contexts[node].join(groupContexts[group])
                        }
                    }
                }
            }
            if !inner.isEmpty {
                // Joins only add, so rounds settle unless the cycle keeps finding new names.
                var settled = false
                for _ in 0..<Self.maxRounds where !settled {
                    settled = true
                    for (group, edge) in inner {
                        var joined = groupContexts[group]
                        joined.join(handed(edge))
                        if joined != groupContexts[group] {
                            groupContexts[group] = joined
                            settled = false
                        }
                    }
                    for (group, to) in innerMembers {
                        var joined = contexts[to]
                        joins += 1
                        joined.join(groupContexts[group])
                        if joined != contexts[to] {
                            contexts[to] = joined
                            settled = false
                        }
                    }
                }
                if !settled { for node in component where node < templates.count { contexts[node].join(.unknown) } }
            }
            // A referenced template's macros get their parameters from callers in the templates
            // that import it, which are not followed: each may hold anything.
            for to in component where to < templates.count && groupsOf[to].contains(where: { !referrers[$0].isEmpty }) {
                for parameter in outlines[to]?.macroParameters ?? [] { contexts[to].bind(parameter, safe: false) }
            }
        }
        self.contexts = contexts
        self.joins = joins
    }

    private static func lastPart(_ name: String) -> String {
        String(name.split(separator: "/").last ?? "")
    }

    /// The strongly connected components of the graph whose edges are `successors` (Tarjan's
    /// algorithm, without recursion so a long chain cannot exhaust the stack), each listed
    /// before the components its edges lead to.
    static func components(_ successors: [[Int]]) -> [[Int]] {
        var index = Array(repeating: -1, count: successors.count)
        var low = Array(repeating: 0, count: successors.count)
        var onStack = Array(repeating: false, count: successors.count)
        var stack: [Int] = []
        var next = 0
        var out: [[Int]] = []
        func open(_ node: Int) {
            index[node] = next
            low[node] = next
            next += 1
            stack.append(node)
            onStack[node] = true
        }
        for start in successors.indices where index[start] < 0 {
            open(start)
            var work: [(node: Int, edge: Int)] = [(start, 0)]
            while let top = work.last {
                let node = top.node
                if top.edge < successors[node].count {
                    work[work.count - 1].edge += 1
                    let successor = successors[node][top.edge]
                    if index[successor] < 0 {
                        open(successor)
                        work.append((successor, 0))
                    } else if onStack[successor] {
                        low[node] = min(low[node], index[successor])
                    }
                    continue
                }
                work.removeLast()
                if let parent = work.last?.node { low[parent] = min(low[parent], low[node]) }
                guard low[node] == index[node] else { continue }
                var component: [Int] = []
                while let member = stack.popLast() {
                    onStack[member] = false
                    component.append(member)
                    if member == node { break }
                }
                out.append(component)
            }
        }
        // Tarjan's algorithm closes a component after every component it leads to.
        return out.reversed()
    }
}
