import Foundation
import Findings

/// OS command injection: a shell separator followed by `echo` of an arithmetic expansion — the
/// answer holds the *product*, which only a shell that ran the payload can have written — or,
/// when nothing is echoed, a `sleep` that delays the answer as asked (time-based).
public struct CommandInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "command-injection", name: "OS command injection", severity: .critical, cwe: [78, 77],
        help: "Do not pass input to a shell: call the program with an argument list, and validate input against an allow-list.")
    /// Ways out of the intended command: separators, substitutions, and the same after closing a quote.
    static let wrappers = [
        ";%@", "|%@", "$(%@)", "`%@`", "';%@;'", "\";%@;\"", "&&%@", "\n%@",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Output-based, then time-based.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        let (a, b, product) = context.markers.product()
        let tag = context.markers.marker()
        let expected = "\(tag)\(product)"
        for wrapper in Self.wrappers {
            let value = point.original + wrapper.replacingOccurrences(of: "%@", with: "echo \(tag)$((\(a)*\(b)))")
            guard let (request, response) = try context.send(point, value), response.text.contains(expected) else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "OS command injection in '\(point.name)': the shell ran an injected echo",
                    evidence: Evidence.of(request, response, around: expected), web: WebFacts(technique: .output))
            ]
        }
        for wrapper in Self.wrappers.prefix(6) where wrapper != "`%@`" {
            var evidence = ""
            let confirmed = try TimingOracle.confirms(baseline: context.baseline.elapsed) { delay in
                let value = point.original + wrapper.replacingOccurrences(of: "%@", with: "sleep \(Int(delay))")
                guard let (request, response) = try context.sendAgain(point, value) else { return nil }
                evidence += "\(request.url) took \(String(format: "%.2f", response.elapsed)) s\n"
                return response.elapsed
            }
            guard confirmed else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "OS command injection in '\(point.name)': an injected sleep delays the answer",
                    evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence,
                    web: WebFacts(technique: .time))
            ]
        }
        return []
    }
}
