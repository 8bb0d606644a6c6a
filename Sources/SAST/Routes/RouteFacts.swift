import Findings

/// The route a taint finding's source is read in: a flow whose source is a request's part
/// inside a handler whose path is known gets that path and the handler's methods
/// (`CodeFacts.route`, `routeMethods`), and a handler's parameter becomes a path segment or a
/// query value by that path. This is what a proof (`sentinel scan --prove`) sends its request
/// to; a finding without it is not tried.
public enum RouteFacts {
    /// `findings` of `file` with the route facts of those whose source is read inside one of
    /// `handlers` (the file's own, from its decorators).
    /// `replacing`: a route already there gives way (a blueprint's prefix, known only once the
    /// project's files are read).
    static func attach(_ findings: [Finding], handlers: [RouteHandler], file: String, replacing: Bool = false) -> [Finding] {
        let routed = handlers.filter { $0.path != nil && $0.file == file && ($0.kind == .handler || $0.kind == .unroutedView) }
        guard !routed.isEmpty else { return findings }
        return findings.map { finding in
            guard replacing || finding.facts.code.route == nil, finding.facts.code.sourceIn != nil,
                let source = finding.codeFlow.first?.location, source.file == nil || source.file == file,
                let line = source.startLine,
                let handler = routed.first(where: { $0.line <= line && line <= max($0.endLine, $0.line) }),
                let path = handler.path
            else { return finding }
            var finding = finding
            finding.facts.code.route = path
            if !handler.methods.isEmpty { finding.facts.code.routeMethods = handler.methods }
            if finding.facts.code.sourceIn == .handlerParameter, let name = finding.facts.code.sourceParameter {
                finding.facts.code.sourceIn = RoutePath.names(in: path).contains(name) ? .path : .query
            }
            let own = "\(finding.facts.code.sourceIn?.rawValue ?? ""):\(finding.facts.code.sourceParameter ?? "")"
            let others = handler.requestParameters.filter { $0 != own }
            finding.facts.code.routeParameters = others.isEmpty ? nil : others
            return finding
        }
    }

    /// `handler` with the request values read by name inside it (``RouteHandler/requestParameters``):
    /// a parameter of the handler's own, or a key read in its lines. At most 20.
    static func reading(_ reads: Set<RequestReads.Read>, into handler: RouteHandler) -> RouteHandler {
        let end = max(handler.endLine, handler.line)
        let inside = reads.filter { $0.line >= handler.line && $0.line <= end }
        guard !inside.isEmpty else { return handler }
        let named = Set(handler.path.map(RoutePath.names(in:)) ?? [])
        var read = handler
        read.requestParameters = Array(
            Set(
                inside.map { read in
                    // A handler's parameter is a path segment where the path names it, else a query value.
                    let part = read.part == .handlerParameter ? (named.contains(read.name) ? .path : .query) : read.part
                    return "\(part.rawValue):\(read.name)"
                }
            ).sorted().prefix(20))
        return read
    }

    /// `findings` of a whole project with the route facts the project's URL configurations give
    /// (`resolved`: ``resolved(_:)`` of `handlers`, which the caller may hold already), where
    /// they give one or change it.
    public static func attach(
        _ findings: [Finding], projectHandlers handlers: [RouteHandler], resolved: [RouteHandler]? = nil
    ) -> [Finding] {
        let resolved = resolved ?? Self.resolved(handlers)
        // Only handlers whose path the project's other files changed or gave.
        let changed = zip(handlers, resolved).filter { $0.0.path != $0.1.path }.map(\.1)
        let byFile = Dictionary(grouping: changed, by: \.file)
        guard !byFile.isEmpty else { return findings }
        return findings.map { finding in
            guard let file = finding.location.file, let handlers = byFile[file] else { return finding }
            return attach([finding], handlers: handlers, file: file, replacing: true)[0]
        }
    }

    /// `handlers` with the paths a project's URL configurations give them: a Django function
    /// view by the name a `path()`/`re_path()`/`url()` entry routes to, a view class's or a
    /// Tornado handler's methods by their class's name, each path below the prefixes of the
    /// `include()`s that lead to its configuration's module; a Flask blueprint's routes below its
    /// prefix, a script's router below the prefix another module mounts it at. A name routed to two paths keeps
    /// the first.
    public static func resolved(_ handlers: [RouteHandler]) -> [RouteHandler] {
        let targets = handlers.filter { $0.kind == .urlTarget && $0.mounted == nil }
        let mounts = handlers.filter { $0.kind == .urlTarget && $0.mounted != nil }
        guard !targets.isEmpty || !mounts.isEmpty else { return handlers }
        let includes = targets.filter { $0.included != nil && $0.path != nil }
        func prefix(of file: String, depth: Int) -> String {
            let module = RouteExtractor.moduleName(file)
            guard depth < 8,
                let include = includes.first(where: { include in
                    guard let included = include.included, include.file != file else { return false }
                    return module == included || module.hasSuffix("." + included)
                }), let path = include.path
            else { return "" }
            return RoutePath.joined(prefix(of: include.file, depth: depth + 1), path)
        }
        var paths: [String: String] = [:]
        var prefixes: [String: String] = [:]
        for target in targets where target.included == nil {
            guard let path = target.path, paths[target.name] == nil else { continue }
            let head = prefixes[target.file] ?? prefix(of: target.file, depth: 0)
            prefixes[target.file] = head
            paths[target.name] = RoutePath.joined(head, path)
        }
        // A blueprint's prefix: its registration's, else its constructor's (Flask's order).
        func blueprintPrefix(of handler: RouteHandler) -> String? {
            guard let receiver = handler.receiver else { return nil }
            let module = RouteExtractor.moduleName(handler.file)
            let key = receiver.contains(".") || module.isEmpty ? receiver : module + "." + receiver
            let matching = mounts.filter { mount in
                guard let mounted = mount.mounted else { return false }
                // `module.*`: every router of the module a script mounts (`app.use("/users", users)`),
                // that module's own, not its submodules'.
                if mounted.hasSuffix(".*") {
                    var owner = String(mounted.dropLast(2))
                    if owner.hasSuffix(".default") { owner = String(owner.dropLast(".default".count)) }
                    return key == owner + "." + receiver
                }
                return key == mounted || key.hasSuffix("." + mounted) || mounted.hasSuffix("." + key)
            }
            return (matching.first { $0.name.hasPrefix("register ") } ?? matching.first)?.path
        }
        return handlers.map { handler in
            if let path = handler.path, handler.kind == .handler, let prefix = blueprintPrefix(of: handler) {
                var mounted = handler
                mounted.path = RoutePath.joined(prefix, path)
                return mounted
            }
            guard handler.path == nil, handler.kind == .handler || handler.kind == .unroutedView else { return handler }
            let owner = handler.name.split(separator: ".").first.map(String.init) ?? handler.name
            guard let path = paths[owner] ?? paths[handler.name] else { return handler }
            var routed = handler
            routed.path = path
            return routed
        }
    }
}
