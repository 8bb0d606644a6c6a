import Web

/// An OpenAPI document's operations as crawl seeds: read by the parent (the worker in the
/// sandbox cannot see the file), each path filled with example values on the scan target's
/// origin, with its header parameters and example body.
public enum APISeeds {
    /// The operations of the OpenAPI 3 document at `path`, addressed on `base`'s origin. Throws
    /// `SentinelError(.invalidInput)` naming the file and line of a problem.
    public static func load(path: String, base: WebURL) throws -> [APISeed] {
        try loadWithNotices(path: path, base: base).seeds
    }

    /// The seeds of the document at `path` and its notices (what reading it left out).
    public static func loadWithNotices(path: String, base: WebURL) throws -> (seeds: [APISeed], notices: [String]) {
        let document = try OpenAPIDocument.load(path: path)
        return (seeds(of: document, base: base), document.notices)
    }

    /// The seeds of a parsed document.
    public static func seeds(of document: OpenAPIDocument, base: WebURL) -> [APISeed] {
        document.operations.prefix(2000).compactMap { operation in
            guard let url = operation.url(base: base) else { return nil }
            var seed = APISeed(method: operation.method.uppercased(), pathAndQuery: url.pathAndQuery)
            for parameter in operation.parameters where parameter.location == .header {
                seed.headers[parameter.name] = parameter.example
            }
            if let body = operation.requestBody, !body.text.isEmpty {
                seed.contentType = body.mediaType
                seed.body = body.text
            }
            return seed
        }
    }
}
