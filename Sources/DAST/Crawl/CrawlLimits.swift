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

    /// Links never followed: they end the session, are assets with nothing to test, or lead into
    /// a loop of relative links (`repeatsItself`).
    static func skips(_ url: WebURL) -> Bool {
        if repeatsItself(url.path) { return true }
        let path = url.path.lowercased()
        if ["logout", "log-out", "signout", "sign-out", "logoff"].contains(where: path.contains) { return true }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        let staticExtensions: Set<Substring> = [
            ".png", ".jpg", ".jpeg", ".gif", ".svg", ".ico", ".webp", ".bmp", ".woff", ".woff2", ".ttf", ".eot",
            ".otf", ".css", ".mp4", ".mp3", ".webm", ".avi", ".pdf", ".zip", ".gz", ".tar", ".exe", ".dmg", ".iso",
        ]
        return staticExtensions.contains(path[dot...])
    }

    /// True for a path where a run of segments repeats itself back to back (`/a/static/js/static/js/`,
    /// or one segment three times: `/x/x/x`): what a relative link resolves to on a page that answers
    /// under any path below it, one level deeper at each hop — the same page again, never a new
    /// one. Crawlers call this a trap (Heritrix's pathological paths).
    static func repeatsItself(_ path: String) -> Bool {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.count >= 3 else { return false }
        for length in 1...min(4, segments.count / 2) {
            let repeatsNeeded = length == 1 ? 3 : 2
            guard segments.count >= length * repeatsNeeded else { continue }
            for start in 0...(segments.count - length * repeatsNeeded) {
                let run = segments[start..<(start + length)]
                if (1..<repeatsNeeded).allSatisfy({ segments[(start + $0 * length)..<(start + ($0 + 1) * length)].elementsEqual(run) }) {
                    return true
                }
            }
        }
        return false
    }
}
