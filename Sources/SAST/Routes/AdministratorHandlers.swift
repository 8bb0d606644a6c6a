import Findings

/// A finding inside a request handler only administrators reach, of a rule that says how sure
/// it is there (`admin-handlers-confidence`): an exception's text shown to the administrator who
/// set up the mail server is a diagnostic for them, not a leak to an attacker (issue 55).
public enum AdministratorHandlers {
    /// `findings` with those of `rules` that set `admin-handlers-confidence` lowered to it where
    /// they lie in one of `handlers` that admits only administrators; the message says so.
    public static func placed(_ findings: [Finding], handlers: [RouteHandler], rules: [Rule]) -> [Finding] {
        let confidences = Dictionary(
            rules.compactMap { rule in rule.adminHandlersConfidence.map { (rule.id, $0) } }, uniquingKeysWith: { a, _ in a })
        guard !confidences.isEmpty else { return findings }
        var byFile: [String: [RouteHandler]] = [:]
        for handler in handlers where handler.kind == .handler && handler.administratorsOnly {
            byFile[handler.file, default: []].append(handler)
        }
        guard !byFile.isEmpty else { return findings }
        return findings.map { finding in
            guard let confidence = confidences[finding.ruleId], finding.confidence > confidence,
                let file = finding.location.file, let line = finding.location.startLine,
                let handler = byFile[file]?.first(where: { $0.line <= line && line <= $0.endLine })
            else { return finding }
            var copy = finding
            copy.confidence = confidence
            copy.message +=
                " (in \(handler.name), which only administrators reach: a diagnostic for them, so \(confidence.rawValue) confidence)"
            return copy
        }
    }
}
