/// The project's own guards, recognised by what they do rather than by their names (issue 55):
/// a function or class (``RouteEntryKind/definition``) guards when its code shows authentication
/// (a refusal with 401/403, a check of the current user, a known guard it applies), or when it
/// applies, extends or calls such a guard (a decorator factory's wrapper calling `abort(403)`, a
/// router class whose dependencies load the current user, a mixin whose `dispatch` checks a
/// permission), followed across the project to a fixed point. A project may also declare its guards
/// (`models.guards` in `.sentinel.yml`).
struct ProjectGuards {
    /// What the project's definitions refer to, whatever a rule counts as authentication: built
    /// once per scan and shared by the route rules (resolving every name every definition uses
    /// is most of the route model's cost).
    struct Index: Sendable {
        /// Definitions by the last component of their qualified name.
        fileprivate var byLast: [String: [Int]] = [:]
        fileprivate var names: [String] = []
        /// Definitions that are methods of a class of the project.
        fileprivate var members = Set<Int>()
        /// What each definition refers to among the definitions.
        fileprivate var references: [[Int]] = []
        /// Each definition's object-level checks, as source text (comparisons, loads) and dotted names.
        fileprivate var evidenceTexts: [[String]] = []
        /// The definitions themselves, for what a rule counts as authentication.
        fileprivate var definitions: [RouteHandler] = []

        init(definitions: [RouteHandler]) {
            self.definitions = definitions
            names = definitions.map(\.name)
            let all = Set(names)
            for (index, name) in names.enumerated() {
                byLast[ProjectGuards.last(name), default: []].append(index)
                if let dot = name.lastIndex(of: "."), all.contains(String(name[..<dot])) { members.insert(index) }
            }
            // What each definition refers to among the definitions: its guards (decorators, bases)
            // and what its body names. Each distinct name resolved once: the same names
            // (`django.db.models.Q`, `self.request`) recur in most definitions of a project.
            var resolved: [String: [Int]] = [:]
            references = definitions.map { definition in
                var out = Set<Int>()
                for name in definition.guards + definition.facts.names {
                    if let known = resolved[name] {
                        out.formUnion(known)
                    } else {
                        let found = resolve(name)
                        resolved[name] = found
                        out.formUnion(found)
                    }
                }
                return Array(out)
            }
            // Object-level evidence compares or scopes by the user (`owner == current_user`,
            // `filter(user=request.user)`, `request.user.has_perms(...)`); a truthiness test or a local
            // named `current_user` (a decorator identifying the caller) is authentication, not ownership.
            evidenceTexts = definitions.map { definition in
                definition.facts.comparisons + definition.facts.loadTexts + definition.facts.names.filter { $0.contains(".") }.sorted()
            }
        }

        /// The definitions a dotted name may refer to: the same last component, and one name a
        /// suffix of the other at a dot (`views.PermissionMixin` and `pkg.views.PermissionMixin`).
        /// `self.check` and `cls.check` name a method of any class; a bare name (`check`, a call or a
        /// local) only a module-level function or class.
        fileprivate func resolve(_ name: String) -> [Int] {
            let isMember = name.hasPrefix("self.") || name.hasPrefix("cls.")
            // A relative import's name (`..scopes.needs_scope`) is matched without its dots.
            let bare = isMember ? String(name.drop { $0 != "." }.dropFirst()) : String(name.drop { $0 == "." })
            guard !bare.isEmpty, let candidates = byLast[ProjectGuards.last(bare)] else { return [] }
            if isMember { return candidates.filter(members.contains) }
            if !bare.contains(".") { return candidates.filter { !members.contains($0) } }
            return candidates.filter { ProjectGuards.same(bare, names[$0]) }
        }
    }

    private let index: Index
    /// Definitions whose code (or whose guards and callees) shows authentication.
    private var guarding = Set<Int>()
    /// Definitions that refuse a caller (401/403), themselves or through what they call.
    private var refusing = Set<Int>()
    /// Names the project declared as guards.
    private let declared: [String]

    /// The most rounds of propagation: chains of wrappers are short.
    static let maxRounds = 8

    init(index: Index, evidence: AuthenticationEvidence, declared: [String]) {
        self.index = index
        self.declared = declared
        let definitions = index.definitions
        for (position, definition) in definitions.enumerated() {
            if evidence.shows(in: definition) || definition.guards.contains(where: isDeclared) { guarding.insert(position) }
            if definition.facts.denies { refusing.insert(position) }
        }
        for _ in 0..<Self.maxRounds {
            var changed = false
            for position in definitions.indices {
                if !guarding.contains(position), index.references[position].contains(where: guarding.contains) {
                    guarding.insert(position)
                    changed = true
                }
                if !refusing.contains(position), index.references[position].contains(where: refusing.contains) {
                    refusing.insert(position)
                    changed = true
                }
            }
            if !changed { break }
        }
    }

    /// Whether one of a handler's guards (decorators, class bases, dependencies) is a guard of
    /// the project's, or one it declared.
    func guards(_ handler: RouteHandler) -> Bool {
        handler.guards.contains { name in isDeclared(name) || index.resolve(name).contains(where: guarding.contains) }
    }

    /// Whether the handler's body calls a function of the project's that refuses callers
    /// (`check_access(obj)` raising 403), or a declared guard.
    func refuses(in handler: RouteHandler) -> Bool {
        handler.facts.names.contains { name in isDeclared(name) || index.resolve(name).contains(where: refusing.contains) }
    }

    /// Whether what guards the handler -- its project guards, the project functions its body
    /// calls, and what those apply, extend or call, a few steps deep -- checks the object against the user (`pattern`: the rule's
    /// `ownership`): a mixin restricting the queryset to what `request.user` may see, a scope
    /// decorator comparing the route's arguments with the caller's grants. The same model decides
    /// authentication and object access (issue 55).
    func checksOwnership(_ handler: RouteHandler, _ pattern: TemplateRegex) -> Bool {
        var seen = Set<Int>()
        // Its guards, and the project's functions its body calls (`require_access(obj, request)`).
        var frontier = (handler.guards + handler.facts.names.sorted()).flatMap(index.resolve)
        for _ in 0..<Self.maxRounds where !frontier.isEmpty {
            var next: [Int] = []
            for position in frontier where seen.insert(position).inserted {
                if index.evidenceTexts[position].contains(where: pattern.occurs) { return true }
                next += index.references[position]
            }
            frontier = next
        }
        return false
    }

    private func isDeclared(_ name: String) -> Bool {
        declared.contains { Self.same(name, $0) }
    }

    fileprivate static func same(_ a: String, _ b: String) -> Bool {
        a == b || a.hasSuffix("." + b) || b.hasSuffix("." + a)
    }

    fileprivate static func last(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}
