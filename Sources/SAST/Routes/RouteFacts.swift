import Findings

/// The route a taint finding's source is read in: a flow whose source is a request's part
/// inside a handler whose path the code names gets that path and the handler's methods
/// (`CodeFacts.route`, `routeMethods`), and a handler's parameter becomes a path segment or a
/// query value by that path. This is what a proof (`sentinel scan --prove`) sends its request
/// to; a finding without it is not tried.
enum RouteFacts {
    /// `findings` with the route facts of those whose source is read inside one of `handlers`
    /// of `file`.
    static func attach(_ findings: [Finding], handlers: [RouteHandler], file: String) -> [Finding] {
        let routed = handlers.filter { $0.kind == .handler && $0.path != nil && $0.file == file }
        guard !routed.isEmpty else { return findings }
        return findings.map { finding in
            guard finding.facts.code.sourceIn != nil, let source = finding.codeFlow.first?.location,
                source.file == nil || source.file == file, let line = source.startLine,
                let handler = routed.first(where: { $0.line <= line && line <= max($0.endLine, $0.line) }),
                let path = handler.path
            else { return finding }
            var finding = finding
            finding.facts.code.route = path
            if !handler.methods.isEmpty { finding.facts.code.routeMethods = handler.methods }
            if finding.facts.code.sourceIn == .handlerParameter, let name = finding.facts.code.sourceParameter {
                finding.facts.code.sourceIn = RoutePath.names(in: path).contains(name) ? .path : .query
            }
            return finding
        }
    }
}
