import Web

extension RobotsTxt {
    /// The most rules kept over all groups.
    static let maxRules = 20_000

    /// Parses `text` (the first `maxBytes` bytes). Lines are `key: value` with `#` comments;
    /// consecutive `User-agent` lines open a group, rules before any group are ignored,
    /// `Sitemap` lines count wherever they are. Never fails.
    public static func parse(_ text: String) -> RobotsTxt {
        let body = String(decoding: text.utf8.prefix(maxBytes), as: UTF8.self)
        var robots = RobotsTxt(groups: [], sitemaps: [])
        var agentsOpen = false
        var ruleCount = 0
        for rawLine in body.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) {
            let line = rawLine.prefix { $0 != "#" }
            guard let colon = line.firstIndex(of: ":") else { continue }
            let key = URLText.trimmed(String(line[..<colon])).lowercased()
            let value = URLText.trimmed(String(line[line.index(after: colon)...]))
            switch key {
            case "user-agent", "useragent", "user agent":
                if !agentsOpen { robots.groups.append(Group(agents: [], rules: [])) }
                agentsOpen = true
                let token = productToken(value)
                if !token.isEmpty, let last = robots.groups.indices.last { robots.groups[last].agents.append(token) }
            case "allow", "disallow":
                agentsOpen = false
                guard !value.isEmpty, value.utf8.count <= maxPatternBytes, ruleCount < maxRules,
                    let last = robots.groups.indices.last
                else { continue }
                robots.groups[last].rules.append(Rule(allow: key == "allow", pattern: value))
                ruleCount += 1
            case "sitemap":
                if !value.isEmpty, !robots.sitemaps.contains(value), robots.sitemaps.count < 1_000 {
                    robots.sitemaps.append(value)
                }
            default: break
            }
        }
        return robots
    }
}
