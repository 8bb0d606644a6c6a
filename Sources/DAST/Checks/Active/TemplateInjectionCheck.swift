import Foundation
import Findings

/// Server-side template injection: template syntax of the common engines (`{{ }}`, `${ }`,
/// `<%= %>`, `#{ }`) around an arithmetic expression comes back as its product, twice with
/// different numbers. Three syntaxes go in one request (each engine leaves the others' text
/// alone); ERB's, which Mako reads as broken code, in a second.
public struct TemplateInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "template-injection", name: "Server-side template injection", severity: .critical, cwe: [1336, 94],
        help: "Never build a template from input; pass input to a fixed template as data.")
    static let forms = [["{{%@}}", "${%@}", "#{%@}"], ["<%= %@ %>"]]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Each group of syntaxes once, each with its own product (not gated on the breaker: a
    /// lenient engine leaves an unclosed `${` alone); the syntax whose product came back is
    /// repeated with new numbers before it counts.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        for (index, group) in Self.forms.enumerated() {
            // ERB and EJS refuse an unclosed `<%` (the breaker has one): without a reaction, no such engine.
            if index > 0, try !context.reacts(point) { break }
            let products = group.map { _ in context.markers.product() }
            let payload = zip(group, products).map { form, product in
                form.replacingOccurrences(of: "%@", with: "\(product.0)*\(product.1)")
            }.joined()
            guard let (request, response) = try context.send(point, point.original + payload) else { continue }
            for (form, product) in zip(group, products) {
                let shown = String(product.2)
                guard !context.baseline.text.contains(shown), response.text.contains(shown) else { continue }
                let (c, d, second) = context.markers.product()
                guard
                    let (_, again) = try context.send(
                        point, point.original + form.replacingOccurrences(of: "%@", with: "\(c)*\(d)")),
                    again.text.contains(String(second))
                else { continue }
                return [
                    Self.rule.finding(
                        at: point,
                        message: "Template injection in '\(point.name)': \(form.replacingOccurrences(of: "%@", with: "…")) is evaluated",
                        evidence: Evidence.of(request, response, around: shown))
                ]
            }
        }
        return []
    }
}
