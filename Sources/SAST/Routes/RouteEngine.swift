import Findings
import Support

/// Runs route rules over the handlers of one project (``RouteHandler``, found file by file while
/// the project is scanned): the checks need the siblings of a handler, and some the whole project.
public struct RouteEngine: Sendable {
    /// The rules, sorted by id.
    public let rules: [RouteRule]

    /// Names the project declares as its guards (`models.guards` in `.sentinel.yml`).
    public let declaredGuards: [String]

    /// An engine for `rules`; `declaredGuards`: the project's own guard names.
    public init(rules: [RouteRule], declaredGuards: [String] = []) {
        self.rules = rules
        self.declaredGuards = declaredGuards
    }

    /// The findings of every rule over `handlers` (every file's, hooks included), sorted by file
    /// and position.
    public func findings(handlers: [RouteHandler]) -> [Finding] {
        var out: [Finding] = []
        guard !rules.isEmpty else { return out }
        let index = ProjectGuards.Index(definitions: handlers.filter { $0.kind == .definition })
        for rule in rules {
            let checker = Checker(rule: rule, handlers: handlers, index: index, declaredGuards: declaredGuards)
            for handler in checker.flagged() { out.append(Self.finding(rule, handler)) }
        }
        return out.sorted {
            ($0.location.file ?? "", $0.location.startLine ?? 0, $0.ruleId) < (
                $1.location.file ?? "", $1.location.startLine ?? 0, $1.ruleId
            )
        }
    }

    private static func finding(_ rule: RouteRule, _ handler: RouteHandler) -> Finding {
        Finding(
            ruleId: rule.id, severity: rule.severity, confidence: rule.confidence,
            message: "\(rule.message) (handler \(handler.name)\(handler.path.map { " at \($0)" } ?? ""))",
            location: Location(file: handler.file, startLine: handler.line, startColumn: handler.column),
            cwe: rule.cwe, snippet: handler.snippet, enclosingScope: handler.name, references: rule.references)
    }

    /// One rule over one project's handlers.
    private struct Checker {
        let rule: RouteRule
        let handlers: [RouteHandler]
        /// Receivers whose `before_request` hook authenticates.
        let guardedReceivers: Set<String>
        /// Directories of the applications whose `before_request` hook authenticates every
        /// blueprint they register (``RouteHandler/coversPackage``).
        let guardedPackages: [String]

        /// The project's own guards, by what they do.
        let projectGuards: ProjectGuards

        init(rule: RouteRule, handlers: [RouteHandler], index: ProjectGuards.Index, declaredGuards: [String]) {
            self.rule = rule
            projectGuards = ProjectGuards(index: index, evidence: rule.authentication, declared: declaredGuards)
            let routed = Set(handlers.filter { $0.kind == .urlTarget }.map(\.name))
            self.handlers = handlers.filter { $0.kind == .handler || $0.kind == .unroutedView && routed.contains($0.name) }
            let guards = projectGuards
            let authenticatingHooks = handlers.filter { hook in
                hook.kind == .hook && (rule.authentication.shows(in: hook) || guards.guards(hook) || guards.refuses(in: hook))
            }
            guardedReceivers = Set(authenticatingHooks.compactMap(\.receiver))
            guardedPackages = authenticatingHooks.filter(\.coversPackage).map { PathText.directory(of: $0.file) }
        }

        func authenticates(_ handler: RouteHandler) -> Bool {
            // A guard that admits only administrators authenticates first.
            handler.administratorsOnly || handler.receiver.map(guardedReceivers.contains) == true
                || guardedPackages.contains { PathText.lies(handler.file, under: $0) }
                || rule.authentication.shows(in: handler)
                || projectGuards.guards(handler) || projectGuards.refuses(in: handler)
        }

        func isPublic(_ handler: RouteHandler) -> Bool {
            guard let regex = rule.publicHandlers else { return false }
            // (`""` is a FastAPI router's prefix, not the site's root.)
            return regex.occurs(in: handler.name.split(separator: ".").last.map(String.init) ?? handler.name)
                || handler.path.map { $0 == "/" || regex.occurs(in: $0) } == true
        }

        func owns(_ handler: RouteHandler) -> Bool {
            guard let regex = rule.ownership else { return false }
            let texts = handler.facts.comparisons + handler.facts.conditions + handler.facts.loadTexts
            if texts.contains(where: regex.occurs) || projectGuards.checksOwnership(handler, regex) { return true }
            // `user = request.user.profile` ... `filter(id=item_id, user=user)`: a local holding the
            // current user, as a value a lookup or a comparison uses (not in a mere condition).
            let owners = handler.facts.assignments.compactMap { name, values in values.contains(where: regex.occurs) ? name : nil }
            let used = handler.facts.comparisons + handler.facts.loadTexts
            return owners.contains { name in used.contains { Self.usesAsValue($0, name) } }
        }

        /// Whether `text` uses `name` as a value: a whole word (not `username` for `user`, not
        /// `x.user`), not the name of a keyword argument (`user=` of `filter(user=owner_id)`).
        static func usesAsValue(_ text: String, _ name: String) -> Bool {
            var rest = text[...]
            while let found = rest.range(of: name) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let tail = text[found.upperBound...]
                let after = tail.first
                func isWord(_ c: Character?) -> Bool { c.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
                let next = tail.drop { $0 == " " }
                let isKeywordName = next.first == "=" && next.dropFirst().first != "="
                if !isWord(before) && before != "." && !isWord(after) && !isKeywordName { return true }
                rest = tail
            }
            return false
        }

        func flagged() -> [RouteHandler] {
            switch rule.check {
            case .missingAuthentication: return missingAuthentication()
            case .unownedObject: return unownedObjects()
            case .exposedEndpoint: return exposedEndpoints()
            }
        }

        /// In each group, the handlers without authentication that act on something private
        /// (`acts-on`) when at least `min-siblings` siblings, and twice as many as those, authenticate.
        /// A sibling that touches nothing private needs no guard and does not count against them.
        private func missingAuthentication() -> [RouteHandler] {
            var out: [RouteHandler] = []
            for members in Dictionary(grouping: handlers.filter { !isPublic($0) }, by: \.group).values {
                let with = members.filter(authenticates)
                let without = members.filter { handler in
                    !authenticates(handler)
                        && rule.actsOn.map { regex in handler.facts.names.contains(where: regex.occurs) } ?? true
                }
                guard with.count >= rule.minSiblings, with.count >= 2 * without.count else { continue }
                out += without
            }
            return out
        }

        /// Authenticated handlers that load by a client key without comparing with the current
        /// user, in a project where another handler does compare (it knows whose objects are whose).
        /// Not those only administrators reach, nor those a permission guards (`permission_required`,
        /// `PermissionRequiredMixin`): such a grant covers every object of its kind, so reaching any
        /// of them by its key is the handler's purpose, not another user's object taken.
        private func unownedObjects() -> [RouteHandler] {
            guard handlers.contains(where: owns) else { return [] }
            return handlers.filter { handler in
                !handler.facts.objectLoads.isEmpty && authenticates(handler) && !isPublic(handler) && !owns(handler)
                    && !handler.administratorsOnly && !handler.guards.contains(where: Self.grantsPermission)
            }
        }

        /// A guard named for a permission check: `permission_required`, `PermissionRequiredMixin`,
        /// `has_permission`, `perm_required` (not `IsAuthenticated`, which admits every user).
        static func grantsPermission(_ guardName: String) -> Bool {
            let words = RouteExtractor.words(of: String(guardName.split(separator: ".").last ?? ""))
            return words.contains { ["permission", "permissions", "perm", "perms"].contains($0) }
        }

        /// Debug/admin/internal handlers without authentication in a project whose handlers authenticate.
        private func exposedEndpoints() -> [RouteHandler] {
            guard let paths = rule.paths, handlers.filter(authenticates).count >= rule.minSiblings else { return [] }
            return handlers.filter { handler in
                !authenticates(handler) && !isPublic(handler) && (paths.occurs(in: handler.path ?? "") || paths.occurs(in: handler.name))
            }
        }
    }
}
