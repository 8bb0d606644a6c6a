import Foundation
import Findings

/// Server-side code evaluation (`eval` of input): an arithmetic expression comes back as its
/// product, and a string concatenation in the same language comes back joined — a calculator
/// that only does arithmetic never passes the second step.
public struct CodeEvaluationCheck: ActiveCheck {
    static let rule = WebRule(
        id: "code-injection", name: "Code injection (server-side eval)", severity: .critical, cwe: [95, 94],
        help: "Never evaluate input as code; parse the values you expect (numbers, names) explicitly.")

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Arithmetic (its own probe: the original may be what fails to evaluate), then a
    /// concatenation in Python, JavaScript, PHP or Ruby.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let (expression, product) = context.arithmetic
        guard !context.baseline.text.contains(String(product)),
            let (_, arithmetic) = try context.send(point, expression), arithmetic.text.contains(String(product))
        else { return [] }
        let (c, d, _) = context.markers.product()
        let joined = "\(c)\(d)"
        let concatenations = [
            "str(\(c))+str(\(d))", "String(\(c))+String(\(d))", "'\(c)'.'\(d)'", "\(c).to_s+\(d).to_s",
        ]
        for expression in concatenations {
            guard let (request, response) = try context.send(point, expression), response.text.contains(joined) else {
                continue
            }
            return [
                Self.rule.finding(
                    at: point, message: "Code injection in '\(point.name)': the server evaluates input as code",
                    evidence: Evidence.of(request, response, around: joined) + "\n(\(expression) also came back as \(product))")
            ]
        }
        return []
    }
}
