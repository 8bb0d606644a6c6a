/// A function of the project that returns a template context (`def row_context(store): return
/// {"rows": ..., "badge_css": ...}`): the views pass its result (`render_template("list.html",
/// **row_context(store))`), so what it returns is what they pass (issue 55).
public struct ContextBuilder: Sendable, Hashable {
    /// The function's name (a view names it by its last part: `helpers.row_context`).
    public var name: String
    /// Each key of the returned context, and whether its value is safe markup.
    public var variables: [String: Bool]
    /// Whether it also returns what its code does not show (`{**options, ...}`, a parameter).
    public var passesUnknown: Bool
    /// The context builders whose result it returns in turn, by the last part of their names.
    public var builders: [String]

    /// A builder named `name` returning `variables`.
    public init(name: String, variables: [String: Bool], passesUnknown: Bool = false, builders: [String] = []) {
        self.name = name
        self.variables = variables
        self.passesUnknown = passesUnknown
        self.builders = builders
    }

    /// How deep a builder returning another builder's context is followed.
    static let maxDepth = 4
    /// The most keys the builders of one name may give, and the most builders one may return in
    /// turn: past either, the context is unknown (a hostile tree of thousands of same-named
    /// helpers costs what these bounds allow per render call, not their product).
    static let maxKeys = 512
    static let maxNested = 16

    /// `calls` with the contexts their builders return merged in: each builder name stands for
    /// every project function of that name (a key is safe only if every one gives it as safe
    /// markup). A name no builder of the project has, or a builder that returns what its code
    /// does not show, leaves the call passing unknown content.
    public static func resolve(_ calls: [RenderedContext], builders: [ContextBuilder]) -> [RenderedContext] {
        guard calls.contains(where: { !$0.builders.isEmpty }) else { return calls }
        // The builders of each name joined once, bounded: every call naming it reads the join.
        let byName = Dictionary(grouping: builders, by: \.name).mapValues(joined)
        return calls.map { call in
            guard !call.builders.isEmpty else { return call }
            var resolved = call
            resolved.builders = []
            var visited: Set<String> = []
            for name in call.builders {
                merge(name, into: &resolved, byName: byName, visited: &visited, depth: 0)
            }
            return resolved
        }
    }

    /// The builders of one name as one: keys joined (safe only where every one is), unknown if
    /// one is or the bounds are passed.
    private static func joined(_ candidates: [ContextBuilder]) -> ContextBuilder {
        var out = ContextBuilder(name: candidates.first?.name ?? "", variables: [:])
        var nested: Set<String> = []
        for builder in candidates {
            if builder.passesUnknown { out.passesUnknown = true }
            for (key, safe) in builder.variables { out.variables[key] = (out.variables[key] ?? true) && safe }
            nested.formUnion(builder.builders)
            if out.variables.count > maxKeys || nested.count > maxNested {
                return ContextBuilder(name: out.name, variables: [:], passesUnknown: true)
            }
        }
        out.builders = nested.sorted()
        return out
    }

    private static func merge(
        _ name: String, into call: inout RenderedContext, byName: [String: ContextBuilder], visited: inout Set<String>, depth: Int
    ) {
        guard visited.insert(name).inserted else { return }
        guard depth < maxDepth, let builder = byName[name] else {
            call.passesUnknown = true
            return
        }
        for (key, safe) in builder.variables { call.variables[key] = (call.variables[key] ?? true) && safe }
        if builder.passesUnknown { call.passesUnknown = true }
        for nested in builder.builders { merge(nested, into: &call, byName: byName, visited: &visited, depth: depth + 1) }
    }
}
