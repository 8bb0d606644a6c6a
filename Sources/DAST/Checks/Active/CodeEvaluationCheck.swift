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
        else { return try blind(point, context: context) }
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

    /// Sleeps in the languages an `eval` runs (Python's `time.sleep`; PHP's and Ruby's `sleep`),
    /// `%d` the seconds asked for.
    static let sleeps = ["__import__('time').sleep(%d)", "sleep(%d)"]

    /// A sink that evaluates the value and discards the result shows nothing but time: an
    /// evaluated sleep delays the answer as asked (`TimingOracle`). Tried only where the value's
    /// syntax matters (`reacts`: a syntax error answers differently), as for blind SQL.
    private func blind(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        guard try context.reacts(point) else { return [] }
        for sleep in Self.sleeps {
            var evidence = ""
            let confirmed = try TimingOracle.confirms(baseline: context.baseline.elapsed) { delay in
                let value = sleep.replacingOccurrences(of: "%d", with: String(Int(delay)))
                guard let (request, response) = try context.sendAgain(point, value) else { return nil }
                evidence += "\(request.url) took \(String(format: "%.2f", response.elapsed)) s\n"
                return response.elapsed
            }
            guard confirmed else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "Code injection in '\(point.name)': an evaluated sleep delays the answer",
                    evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence,
                    web: WebFacts(technique: .time))
            ]
        }
        return []
    }
}
