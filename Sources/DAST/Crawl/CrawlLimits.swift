import Web

/// What bounds a crawl beyond the request budget.
public struct CrawlLimits: Sendable, Hashable {
    /// Pages fetched at most.
    public var maxPages: Int
    /// Link hops from the start page at most.
    public var maxDepth: Int
    /// Submit POST forms while crawling (only with `--active`: a passive scan never changes state).
    public var submitsMutatingForms: Bool

    /// Limits; see the properties.
    public init(maxPages: Int = 300, maxDepth: Int = 6, submitsMutatingForms: Bool = false) {
        self.maxPages = maxPages
        self.maxDepth = maxDepth
        self.submitsMutatingForms = submitsMutatingForms
    }

    /// Links never followed: they end the session or are assets with nothing to test.
    static func skips(_ url: WebURL) -> Bool {
        let path = url.path.lowercased()
        if ["logout", "log-out", "signout", "sign-out", "logoff"].contains(where: path.contains) { return true }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        let staticExtensions: Set<Substring> = [
            ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".bmp", ".woff", ".woff2", ".ttf", ".eot",
            ".otf", ".css", ".mp4", ".mp3", ".webm", ".avi", ".pdf", ".zip", ".gz", ".tar", ".exe", ".dmg", ".iso",
        ]
        return staticExtensions.contains(path[dot...])
    }
}
