import Web

/// A parsed `robots.txt` (RFC 9309): groups of rules per user agent and the sitemaps named.
/// A scanner uses it two ways: to honour it when asked, and as a list of paths worth visiting.
public struct RobotsTxt: Sendable, Hashable {
    /// One `Allow` or `Disallow` line.
    public struct Rule: Sendable, Hashable {
        /// `Allow` (true) or `Disallow` (false).
        public let allow: Bool
        /// The path pattern: `*` matches any sequence, a final `$` anchors the end.
        public let pattern: String
        /// The pattern normalised for matching, once rather than on every `allows`.
        let matcher: [UInt8]

        /// A rule for `pattern`.
        public init(allow: Bool, pattern: String) {
            self.allow = allow
            self.pattern = pattern
            matcher = Array(RobotsPattern.normalized(pattern).utf8)
        }
    }

    /// The rules following one or more `User-agent` lines.
    public struct Group: Sendable, Hashable {
        /// The product tokens named, lowercased (`*` for every crawler).
        public var agents: [String]
        /// The rules in order.
        public var rules: [Rule]
    }

    /// The groups in file order.
    public var groups: [Group]
    /// `Sitemap` URLs as written, distinct, in order.
    public var sitemaps: [String]

    /// The most bytes read (RFC 9309 asks crawlers to read at least 500 KiB).
    public static let maxBytes = 500 * 1_024
    /// The longest pattern kept; longer lines are ignored.
    static let maxPatternBytes = 2_048

    /// The rules that apply to `agent` (a user-agent string; its product token is compared
    /// case-insensitively): those of every group naming it, else those of every `*` group.
    public func rules(for agent: String) -> [Rule] {
        let token = Self.productToken(agent)
        let named = groups.filter { $0.agents.contains(token) }
        return (named.isEmpty ? groups.filter { $0.agents.contains("*") } : named).flatMap(\.rules)
    }

    /// Whether `agent` may fetch `path` (path and query): the longest matching pattern wins, an
    /// `Allow` wins a tie, no match allows; `/robots.txt` itself is always allowed.
    public func allows(path: String, agent: String) -> Bool {
        let target = Array(RobotsPattern.normalized(path).utf8)
        guard target != Array("/robots.txt".utf8) else { return true }
        var best: (length: Int, allow: Bool)?
        for rule in rules(for: agent) where RobotsPattern.matches(rule.matcher, target) {
            let length = rule.matcher.count
            if let current = best, current.length > length || (current.length == length && current.allow) { continue }
            best = (length, rule.allow)
        }
        return best?.allow ?? true
    }

    /// The literal path prefixes the rules name (up to the first `*` or `$`), distinct, in
    /// order: paths worth visiting, since sites list what they would rather hide.
    public var paths: [String] {
        var seen = Set<String>()
        return groups.flatMap(\.rules).compactMap { rule in
            let prefix = String(rule.pattern.prefix { $0 != "*" && $0 != "$" })
            return prefix.hasPrefix("/") && seen.insert(prefix).inserted ? prefix : nil
        }
    }

    /// The product token of a user-agent string: its leading letters, `_` and `-`, lowercased.
    static func productToken(_ agent: String) -> String {
        let trimmed = URLText.trimmed(agent)
        if trimmed == "*" { return "*" }
        return String(trimmed.prefix { $0.isASCII && ($0.isLetter || $0 == "_" || $0 == "-") }).lowercased()
    }
}
