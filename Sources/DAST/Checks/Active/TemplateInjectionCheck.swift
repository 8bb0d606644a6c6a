import Foundation
import Findings

/// Server-side template injection: template syntax of the common engines (`{{ }}`, `${ }`,
/// `<%= %>`, `#{ }`) around an arithmetic expression comes back as its product, twice with
/// different numbers.
public struct TemplateInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "template-injection", name: "Server-side template injection", severity: .critical, cwe: [1336, 94],
        help: "Never build a template from input; pass input to a fixed template as data.")
    static let forms = ["{{%@}}", "${%@}", "<%= %@ %>", "#{%@}"]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Each syntax once; a hit is repeated with new numbers before it counts.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        for form in Self.forms {
            let (a, b, product) = context.markers.product()
            let payload = point.original + form.replacingOccurrences(of: "%@", with: "\(a)*\(b)")
            guard !context.baseline.text.contains(String(product)),
                let (request, response) = try context.send(point, payload), response.text.contains(String(product))
            else { continue }
            let (c, d, second) = context.markers.product()
            guard let (_, again) = try context.send(point, point.original + form.replacingOccurrences(of: "%@", with: "\(c)*\(d)")),
                again.text.contains(String(second))
            else { continue }
            return [
                Self.rule.finding(
                    at: point,
                    message: "Template injection in '\(point.name)': \(form.replacingOccurrences(of: "%@", with: "…")) is evaluated",
                    evidence: Evidence.of(request, response, around: String(product)))
            ]
        }
        return []
    }
}
