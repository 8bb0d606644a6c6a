/// The facts of a source-code finding (SAST, secrets) beyond its `codeFlow`.
public struct CodeFacts: Sendable, Hashable {
    /// Whose input reaches the sink.
    public enum TaintSource: String, Sendable, Hashable, CaseIterable {
        /// The operator's own input: environment, argv, stdin.
        case local
        /// Input from outside: requests, files, the network.
        case remote
    }

    /// Whose input reaches the sink, for a taint finding.
    public var taintSource: TaintSource?
    /// The encoding the file was decoded with when the secret showed only then (`utf-16`).
    public var sourceEncoding: String?
    /// Where in the request the flow's source reads (`query` for `request.args.get("q")`).
    public var sourceIn: RequestPart?
    /// The name of the request's value the source reads (`q`), when the code names it.
    public var sourceParameter: String?
    /// The URL path of the route whose handler holds the source, as the code writes it
    /// (`/notes/<int:id>`, `/users/:id`).
    public var route: String?
    /// The HTTP methods that route answers (`GET`, `POST`).
    public var routeMethods: [String]?
    /// The route's other values its handler reads by name, `part:name` (`form:password`): a
    /// proof sends them too.
    public var routeParameters: [String]?
    /// For a web finding: the handler of the route its URL is (`app.py:35`), where the code
    /// knows the route.
    public var routeHandler: String?

    /// Code facts; leave out what is unknown.
    public init(
        taintSource: TaintSource? = nil, sourceEncoding: String? = nil, sourceIn: RequestPart? = nil,
        sourceParameter: String? = nil, route: String? = nil, routeMethods: [String]? = nil,
        routeParameters: [String]? = nil, routeHandler: String? = nil
    ) {
        self.taintSource = taintSource
        self.sourceEncoding = sourceEncoding
        self.sourceIn = sourceIn
        self.sourceParameter = sourceParameter
        self.route = route
        self.routeMethods = routeMethods
        self.routeParameters = routeParameters
        self.routeHandler = routeHandler
    }
}
