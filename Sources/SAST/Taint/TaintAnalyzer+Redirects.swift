/// Open redirect: only the start of a URL decides where a browser goes. Text the request supplies
/// after a start that fixes the destination lands in the path, query or fragment of a URL on the
/// same site (the prefix barrier of CodeQL's URL-redirection query, as a class).
extension TaintAnalyzer {
    /// Whether a clean `start` of a URL fixes its destination: a value the program built itself
    /// (`reverse(...)`, `url_for(...)`, a setting, `request.path`), or a literal that does
    /// (``fixesDestination(_:)-(String)``). The empty string and other constants do not.
    static func fixesDestination(_ start: AbstractValue) -> Bool {
        guard let constant = start.constant else { return true }
        if case .string(let text) = constant { return fixesDestination(text) }
        return false
    }

    /// Whether a literal start fixes the destination: it holds a query or fragment (`?`, `#`), or
    /// a path: `/x` (not `//` or `/\\`, which name a host), `users/` (no scheme before the first
    /// slash), or a scheme and host ended by a slash (`https://example.com/`).
    static func fixesDestination(_ text: String) -> Bool {
        if text.contains("?") || text.contains("#") { return true }
        guard let slash = text.firstIndex(of: "/") else { return false }
        let before = text[..<slash]
        let after = text[text.index(after: slash)...]
        if before.isEmpty {
            guard let next = after.first else { return false }
            return next != "/" && next != "\\"
        }
        if before.contains("\\") { return false }
        // `users/` is a relative path; `javascript:x/` is not.
        guard before.contains(":") else { return true }
        guard before.hasSuffix(":") else { return false }
        // `scheme://host/`: a host, then a slash that ends it.
        guard after.hasPrefix("/") else { return false }
        let authority = after.dropFirst()
        guard let end = authority.firstIndex(of: "/") else { return false }
        return end != authority.startIndex
    }
}
