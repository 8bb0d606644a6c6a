import Web

/// Which element attributes hold links, and of which kind.
enum HTMLLinkSources {
    /// `(element, attribute) → kind`; `link` is decided by its `rel`.
    static let table: [String: [(attribute: String, kind: HTMLLink.Kind)]] = [
        "a": [("href", .navigation)], "area": [("href", .navigation)], "iframe": [("src", .navigation)],
        "frame": [("src", .navigation)], "form": [("action", .navigation)], "button": [("formaction", .navigation)],
        "input": [("formaction", .navigation), ("src", .resource)], "script": [("src", .resource)],
        "img": [("src", .resource)], "embed": [("src", .resource)], "source": [("src", .resource)],
        "video": [("src", .resource), ("poster", .resource)], "audio": [("src", .resource)],
        "object": [("data", .resource)], "link": [("href", .resource)],
    ]

    /// `link rel` values naming documents rather than subresources.
    static let documentRelations: Set<String> = ["alternate", "canonical", "next", "prev", "previous", "help", "search"]

    /// The kind of a `<link>`: navigation when its `rel` names a document.
    static func linkKind(rel: String?) -> HTMLLink.Kind {
        let relations = (rel ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        return relations.contains(where: documentRelations.contains) ? .navigation : .resource
    }

    /// The URL of a `<meta http-equiv="refresh" content="5; url=/next">`, nil when it only reloads.
    static func refreshURL(_ content: String) -> String? {
        var text = Substring(content).drop(while: { $0.isWhitespace || $0.isNumber || $0 == "." })
        text = text.drop(while: \.isWhitespace)
        if text.first == ";" || text.first == "," { text = text.dropFirst().drop(while: \.isWhitespace) }
        if text.prefix(3).lowercased() == "url" {
            let rest = text.dropFirst(3).drop(while: \.isWhitespace)
            if rest.first == "=" { text = rest.dropFirst().drop(while: \.isWhitespace) }
        }
        if let quote = text.first, quote == "'" || quote == "\"" {
            text = text.dropFirst()
            if let close = text.firstIndex(of: quote) { text = text[..<close] }
        }
        let url = URLText.trimmed(String(text))
        return url.isEmpty ? nil : url
    }
}
