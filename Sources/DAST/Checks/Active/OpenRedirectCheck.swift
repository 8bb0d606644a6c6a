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

    /// Where the value is a URL or a path, the page redirects, or the value shows in a header or
    /// a refresh: an absolute URL, then (unless that answer went nowhere) the scheme-relative
    /// forms some filters let through.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let marker = context.markers.marker()
        let value = point.original
        let likely = value.hasPrefix("/") || value.contains("://") || Self.target(of: context.baseline) != nil
        // Otherwise the value must show where a redirect's target would: in a header or a refresh.
        if !likely, let probed = try context.reflection(point) {
            guard try context.reflectedInHeader(point) || Self.target(of: probed) != nil else { return [] }
        }
        for (index, payload) in ["http://\(Self.host)/\(marker)", "//\(Self.host)/\(marker)", "/\\\(Self.host)/\(marker)"]
            .enumerated()
        {
            guard let (request, response) = try context.send(point, payload) else { continue }
            let target = Self.target(of: response)
            guard let target, let resolved = request.url.resolving(target), resolved.host == Self.host else {
                if index == 0 && !likely && target == nil { return [] }
                continue
            }
            return [
                Self.rule.finding(
                    at: point, message: "Open redirect in '\(point.name)': the target sends users to any site",
                    evidence: "Request: \(request.summary)\nResponse: HTTP \(response.status), redirect to \(target)")
            ]
        }
        return []
    }

    /// Where the answer sends the browser: a redirect's `Location`, or a meta refresh.
    static func target(of response: WebResponse) -> String? {
        if response.isRedirect, let location = response.header("Location") { return location }
        return response.isHTML ? metaRefresh(response.text) : nil
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
