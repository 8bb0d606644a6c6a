import Web

/// The path of a web finding's URL, and the paths an application mounted below a prefix serves
/// it as (`/app/notes/1`: `/notes/1`, `/1`).
enum WebURLPath {
    /// The URL's path, nil for a URL that does not parse.
    static func path(of url: String) -> String? { WebURL(url)?.path }

    /// `path` without its first segment, then without its first two, and so on (at most 4).
    static func suffixes(of path: String) -> [String] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard segments.count > 1 else { return [] }
        return (1..<min(segments.count, 5)).map { "/" + segments.dropFirst($0).joined(separator: "/") }
    }
}
