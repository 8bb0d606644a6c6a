import Web

/// Choosing the request media type an active scan can exercise best.
enum OpenAPIMediaTypes {
    /// The preferred of `types` (as written in `content`): JSON, form-urlencoded, multipart,
    /// XML, plain text, else the first.
    static func preferred(_ types: [String]) -> String? {
        let ranks: [(String) -> Bool] = [
            { $0 == "application/json" }, isJSON, { $0 == "application/x-www-form-urlencoded" },
            { $0 == "multipart/form-data" }, isXML, { $0 == "text/plain" },
        ]
        for rank in ranks {
            if let found = types.first(where: { rank(essence($0)) }) { return found }
        }
        return types.first
    }

    /// The type without parameters, lowercased (`application/json; charset=utf-8` → `application/json`).
    static func essence(_ type: String) -> String {
        URLText.trimmed(String(type.prefix { $0 != ";" })).lowercased()
    }

    /// `application/json` and `+json` types.
    static func isJSON(_ type: String) -> Bool {
        let value = essence(type)
        return value == "application/json" || value.hasSuffix("+json") || value == "text/json"
    }

    /// `application/xml`, `text/xml` and `+xml` types.
    static func isXML(_ type: String) -> Bool {
        let value = essence(type)
        return value == "application/xml" || value == "text/xml" || value.hasSuffix("+xml")
    }
}
