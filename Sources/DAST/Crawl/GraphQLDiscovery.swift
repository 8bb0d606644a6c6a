import Documents
import Web

/// Finds a GraphQL API beside the crawled site and turns its schema into endpoints: the usual
/// paths (and any crawled path that names GraphQL) are asked the introspection query; where one
/// answers with a schema, each operation becomes a `POST` of `{"query", "variables"}` whose
/// variables are the insertion points. Queries read (tested with the reads), mutations write.
enum GraphQLDiscovery {
    /// Paths GraphQL servers are usually mounted at.
    static let usualPaths = ["/graphql", "/api/graphql", "/graphql/v1", "/v1/graphql", "/gql", "/query"]
    /// The most paths asked.
    static let maxPaths = 8

    /// Crawled paths that name GraphQL and are not among `usualPaths`.
    static func crawledPaths(_ site: Crawler.Result) -> [String] {
        var paths: [String] = []
        for endpoint in site.endpoints where endpoint.url.path.lowercased().contains("graphql") {
            let path = endpoint.url.path
            if !usualPaths.contains(path), !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The operations of the first of `paths` that answers the introspection query (one API per
    /// site). The usual paths are asked before the crawl: a crawled link may change the server's
    /// mode (a "hard level" that turns introspection off).
    static func endpoints(paths: [String], start: WebURL, client: WebClient) -> [Endpoint] {
        for path in paths.prefix(maxPaths) {
            let url = start.with(path: path).withQuery([])
            guard let schema = try? introspect(url, client: client) else { continue }
            return schema.operations.map { endpoint($0, url: url) }
        }
        return []
    }

    /// The schema at `url`, or nil when it answers no introspection.
    private static func introspect(_ url: WebURL, client: WebClient) throws -> GraphQLSchema? {
        let body = DocumentNode.object([("query", .string(GraphQLSchema.introspection))])
        var request = WebRequest(method: "POST", url: url)
        request.setHeader("Content-Type", "application/json")
        request.body = JSONWriter.bytes(body, sortKeys: false)
        let response = try client.send(request)
        guard response.status == 200, response.mediaType.contains("json"),
            let answer = try? JSON.parse(Array(response.text.utf8), file: url.string)
        else { return nil }
        return GraphQLSchema(answer: answer)
    }

    private static func endpoint(_ operation: GraphQLSchema.Operation, url: WebURL) -> Endpoint {
        let body = DocumentNode.object([("query", .string(operation.document)), ("variables", operation.variables.value)])
        return Endpoint(
            method: "POST", url: url, body: .json(body),
            discovery: operation.kind == "mutation" ? .graphqlMutation : .graphqlQuery)
    }
}
