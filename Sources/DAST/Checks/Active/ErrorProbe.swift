import Web

/// The error-based step the SQL, XPath and LDAP checks share: a suffix that breaks the query's
/// syntax makes the engine's own error text appear, text the original answer does not hold —
/// as sent, or as an HTML page shows it (a template escapes `near "y"` as `near &quot;y&quot;`).
enum ErrorProbe {
    /// What proved it: the suffix sent, the exchange, and the error text found.
    struct Hit {
        let suffix: String
        let request: WebRequest
        let response: WebResponse
        let signature: String

        /// The exchange, with the error as the page shows it (character references decoded).
        var evidence: String {
            var text = "Request: \(request.summary)\nResponse: HTTP \(response.status)"
            if let excerpt = Evidence.excerpt(of: ErrorProbe.shown(response.text), around: signature) { text += "\n… \(excerpt) …" }
            return text
        }
    }

    /// The first suffix whose answer holds a new error signature and passes `confirm`.
    static func first(
        _ point: InsertionPoint, context: ActiveContext, suffixes: [String], signatures: [String],
        confirm: (Hit) throws -> Bool = { _ in true }
    ) throws -> Hit? {
        for suffix in suffixes {
            guard let (request, response) = try context.send(point, point.original + suffix) else { continue }
            let text = shown(response.text)
            let baseline = shown(context.baseline.text)
            guard let signature = signatures.first(where: { text.contains($0) && !baseline.contains($0) }) else { continue }
            let hit = Hit(suffix: suffix, request: request, response: response, signature: signature)
            if try confirm(hit) { return hit }
        }
        return nil
    }

    /// `text` with its character references decoded: what a reader of the page sees.
    static func shown(_ text: String) -> String {
        text.contains("&") ? HTMLEntities.decode(Array(text.utf8)[...], inAttribute: false) : text
    }
}
