import Findings

/// Server-side request forgery: the parameter gets a URL on the scan's canary. A target that
/// echoes what it fetched is confirmed at once (the canary's answer is in the page); otherwise
/// the probe waits for the canary to report the fetch (out of band).
public struct SSRFCheck: ActiveCheck {
    static let rule = WebRule(
        id: "ssrf", name: "Server-side request forgery", severity: .high, cwe: [918],
        help: "Fetch only URLs on an allow-list of hosts; resolve the name and refuse private, loopback and link-local addresses.")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// One canary URL per point, except where the value is a number (an id or a count) or a
    /// fetched file was shown to run (the file-inclusion finding says more).
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        guard let canary = context.canary, !point.isNumeric, !context.reported.contains(FileInclusionCheck.rule.ruleId) else {
            return []
        }
        let token = context.markers.marker()
        let pending = Self.rule.finding(
            at: point, message: "Server-side request forgery in '\(point.name)': the server fetched a URL the scan named",
            evidence: "Request: \(point.request("\(canary.base)/\(token)").summary)\nThe canary received GET /\(token).",
            web: WebFacts(technique: .outOfBand))
        let url = canary.url(token: token, proving: pending)
        guard let (request, response) = try context.send(point, url) else { return [] }
        let echo = CanaryRegistry.echo(of: token)
        guard response.text.contains(echo) else { return [] }
        var finding = pending
        finding.evidence = Evidence.bounded(Evidence.of(request, response, around: echo))
        finding.facts.web.technique = .echo
        return [finding]
    }
}
