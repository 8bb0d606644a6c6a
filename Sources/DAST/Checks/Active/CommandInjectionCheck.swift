import Foundation
import Findings

/// OS command injection: a shell separator followed by `echo` of an arithmetic expansion — the
/// answer holds the *product*, which only a shell that ran the payload can have written — or,
/// when nothing is echoed, a `sleep` that delays the answer as asked (time-based).
///
/// Each probe works wherever the value lands in the command line: unquoted, in single or in
/// double quotes. The separator comes first (for the unquoted value), then a single quote that
/// leaves a single-quoted value and the separator again, then a double quote for a double-quoted
/// one; the quotes stay balanced for every starting state, so the shell never fails to parse.
public struct CommandInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "command-injection", name: "OS command injection", severity: .critical, cwe: [78, 77],
        help: "Do not pass input to a shell: call the program with an argument list, and validate input against an allow-list.")
    /// `;` in the three quoting states, the command run once in each.
    static let separated = ";%@;';%@;'\";%@;\""
    /// The output probes' shapes (`%@` is the command): `;` and then newlines (either still works
    /// where a filter strips the other), and a pipe where both are refused (unquoted values only:
    /// in quotes its output would feed the next command).
    static let shapes = [separated + "\n%@\n'\n%@\n'\"\n%@\n\"", "|%@"]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Output-based where the value is read (an echo shows only where output does);
    /// time-based everywhere, with a command substitution too (`$(sleep)`, for `;` filtered).
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        if try context.readsValue(point) {
            let (a, b, product) = context.markers.product()
            let tag = context.markers.marker()
            let expected = "\(tag)\(product)"
            let echo = "echo \(tag)$((\(a)*\(b)))"
            for shape in Self.shapes {
                let value = point.original + shape.replacingOccurrences(of: "%@", with: echo)
                guard let (request, response) = try context.send(point, value), response.text.contains(expected) else { continue }
                return [
                    Self.rule.finding(
                        at: point, message: "OS command injection in '\(point.name)': the shell ran an injected echo",
                        evidence: Evidence.of(request, response, around: expected), web: WebFacts(technique: .output))
                ]
            }
        }
        var evidence = ""
        let confirmed = try TimingOracle.confirms(baseline: context.baseline.elapsed) { delay in
            let sleep = "sleep \(Int(delay))"
            let value = point.original + "$(\(sleep))" + Self.separated.replacingOccurrences(of: "%@", with: sleep)
            guard let (request, response) = try context.sendAgain(point, value) else { return nil }
            evidence += "\(request.url) took \(String(format: "%.2f", response.elapsed)) s\n"
            return response.elapsed
        }
        guard confirmed else { return [] }
        return [
            Self.rule.finding(
                at: point, message: "OS command injection in '\(point.name)': an injected sleep delays the answer",
                evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence,
                web: WebFacts(technique: .time))
        ]
    }
}
