import Foundation
import Findings

/// Open redirect: a URL on a reserved, never-resolving host put in the parameter comes back as
/// the `Location` of a redirect (or a meta refresh). The redirect is never followed.
public struct OpenRedirectCheck: ActiveCheck {
    static let rule = WebRule(
        id: "open-redirect", name: "Open redirect", severity: .medium, cwe: [601],
        help: "Redirect only to relative paths (one leading slash) or to hosts on an allow-list.")
    /// A host that cannot exist (`.invalid` is reserved), so nothing is ever reached.
    static let host = "sentinel-redirect.invalid"

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// An absolute URL, then a scheme-relative one.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let marker = context.markers.marker()
        for payload in ["http://\(Self.host)/\(marker)", "//\(Self.host)/\(marker)", "/\\\(Self.host)/\(marker)"] {
            guard let (request, response) = try context.send(point, payload) else { continue }
            var target: String?
            if response.isRedirect, let location = response.header("Location") { target = location }
            if target == nil, response.isHTML, let refresh = Self.metaRefresh(response.text) { target = refresh }
            guard let target, let resolved = request.url.resolving(target), resolved.host == Self.host else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "Open redirect in '\(point.name)': the target sends users to any site",
                    evidence: "Request: \(request.summary)\nResponse: HTTP \(response.status), redirect to \(target)")
            ]
        }
        return []
    }

    /// The URL of a `<meta http-equiv="refresh" content="0; url=...">`.
    static func metaRefresh(_ html: String) -> String? {
        let lower = html.lowercased()
        guard lower.contains("http-equiv=\"refresh\"") || lower.contains("http-equiv=refresh"),
            let range = lower.range(of: "url=")
        else { return nil }
        let rest = html[range.upperBound...].prefix { $0 != "\"" && $0 != "'" && $0 != ">" }
        return String(rest).trimmingCharacters(in: .whitespaces)
    }
}
