/// The error-based step the SQL, XPath and LDAP checks share: a suffix that breaks the query's
/// syntax makes the engine's own error text appear, text the original answer does not hold.
enum ErrorProbe {
    /// What proved it: the suffix sent, the exchange, and the error text found.
    struct Hit {
        let suffix: String
        let request: WebRequest
        let response: WebResponse
        let signature: String
    }

    /// The first suffix whose answer holds a new error signature and passes `confirm`.
    static func first(
        _ point: InsertionPoint, context: ActiveContext, suffixes: [String], signatures: [String],
        confirm: (Hit) throws -> Bool = { _ in true }
    ) throws -> Hit? {
        for suffix in suffixes {
            guard let (request, response) = try context.send(point, point.original + suffix),
                let signature = signatures.first(where: { response.text.contains($0) && !context.baseline.text.contains($0) })
            else { continue }
            let hit = Hit(suffix: suffix, request: request, response: response, signature: signature)
            if try confirm(hit) { return hit }
        }
        return nil
    }
}
