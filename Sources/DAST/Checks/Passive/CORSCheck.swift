import Findings
import Foundation
import Support
import Web

/// Cross-origin resource sharing that lets any site read answers: the `Origin` a request names
/// is echoed into `Access-Control-Allow-Origin` (or `null` is allowed) together with
/// `Access-Control-Allow-Credentials: true`, so a hostile page reads a logged-in user's data.
public struct CORSCheck: ProbeCheck {
    static let rule = WebRule(
        id: "cors-origin-reflected", name: "CORS trusts any origin with credentials", severity: .high, cwe: [942, 346],
        help: "Allow only a fixed list of trusted origins; never echo the request's Origin or allow null with credentials.")
    static let wildcard = WebRule(
        id: "cors-origin-reflected-no-credentials", name: "CORS echoes any origin", severity: .low, cwe: [942],
        help: "Allow only a fixed list of trusted origins.")
    /// The origin the probe claims: a reserved name that can never be a real site.
    static let hostileOrigin = "http://sentinel-cors.invalid"

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule, Self.wildcard] }

    /// A check.
    public init() {}

    /// Sends each distinct GET path (at most 300) once more with a foreign `Origin`.
    public func probe(_ site: Crawler.Result, start: WebURL, client: WebClient, sink: FindingSink) {
        var paths = Set<String>()
        let endpoints = site.endpoints.filter { $0.method == "GET" && paths.insert($0.url.path).inserted }.prefix(300)
        ParallelFor.run(endpoints.count, threads: 4) { index in
            var request = Array(endpoints)[index].request
            request.setHeader("Origin", Self.hostileOrigin)
            guard let response = try? client.send(request) else { return }
            let allowed = response.header("Access-Control-Allow-Origin")?.trimmingCharacters(in: .whitespaces) ?? ""
            let credentials = response.header("Access-Control-Allow-Credentials")?.lowercased() == "true"
            guard allowed == Self.hostileOrigin || allowed == "null" else { return }
            let rule = credentials ? Self.rule : Self.wildcard
            let evidence =
                "Request: GET \(request.url) with Origin: \(Self.hostileOrigin)\n"
                + "Response: Access-Control-Allow-Origin: \(allowed)"
                + (credentials ? ", Access-Control-Allow-Credentials: true" : "")
            sink.report(
                rule.finding(
                    url: request.url.withQuery([]).string, method: "GET", parameter: "Origin",
                    message: "\(request.url.path) lets any origin read its answers"
                        + (credentials ? " with the user's cookies" : ""),
                    evidence: evidence, web: WebFacts(parameterIn: "header")),
                // The policy is the application's (a middleware's): one finding, its URLs as evidence.
                key: rule.ruleId + "|" + request.url.origin.description)
        }
    }
}
