import Foundation
import Findings

/// SQLite's time-based probe. SQLite has no sleep, so an injection whose result the route
/// discards (an INSERT into a log, a lookup whose answer never changes) shows only in time: a
/// recursive CTE counting to `n` makes SQLite work in proportion to `n` (CPU only, a few bytes of
/// memory), and `ScalingOracle` finds an `n` that shows and confirms the delay follows it.
///
/// Where SQLite must evaluate it, whatever rows match: concatenated into a quoted value,
/// `'||substr((Q),1,0)||'` (the value itself is unchanged), which an INSERT … VALUES evaluates
/// always and a WHERE once for the rows it scans; added to a number as `+0*(Q)`; and, on lookups,
/// as a `LIMIT (Q)` that ends the query — a SELECT computes its limit before reading a row, so a
/// lookup in an empty table (whose WHERE never runs) delays too.
///
/// Cost on a point that does not run them: one request per shape — 1 (a quoted value written),
/// 2 (a quoted lookup, or a number written), 3 (a numeric lookup), one more with double quotes.
/// A confirmed shape costs at most 3 calibrating requests and 4 confirming ones.
extension SQLInjectionCheck {
    /// `%d` is the count.
    static let heavyQuery = "(WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x<%d) SELECT count(*) FROM c)"
    /// About a second and a half on a small server's CPython; calibration scales it from there.
    static let heavyStart = 12_000_000
    /// The largest count sent (a doubled one, only to a server that counts fast: calibration
    /// keeps a delay under `ScalingOracle.tooSlow` before doubling it).
    static let heavyLimit = 1 << 28

    /// The shapes for `point`, `%q` standing for the heavy query.
    static func heavyShapes(numeric: Bool, lookup: Bool, doubleQuotes: Bool) -> [String] {
        var shapes: [String] = []
        if numeric { shapes.append("+0*%q") }
        if numeric && lookup { shapes.append(" LIMIT %q-- -") }
        shapes.append("'||substr(%q,1,0)||'")
        if doubleQuotes { shapes.append("\"||substr(%q,1,0)||\"") }
        if !numeric && lookup { shapes.append("' LIMIT %q-- -") }
        return shapes
    }

    /// Where SQLite is plausible (its errors were seen, or no engine's were) and nothing else
    /// proved SQL injection: the heavy query in each shape, confirmed by `ScalingOracle`.
    func heavyQueryBased(_ point: InsertionPoint, _ context: ActiveContext, doubleQuotes: Bool) throws -> Finding? {
        let named = context.engines.all
        guard named.isEmpty || named.contains(.sqlite) else { return nil }
        let shapes = Self.heavyShapes(numeric: point.isNumeric, lookup: point.endpoint.isLookup, doubleQuotes: doubleQuotes)
        for shape in shapes {
            var evidence = ""
            let confirmed = try ScalingOracle.confirms(
                baseline: context.baseline.elapsed, start: Self.heavyStart, limit: Self.heavyLimit
            ) { n in
                let query = Self.heavyQuery.replacingOccurrences(of: "%d", with: String(n))
                let value = point.original + shape.replacingOccurrences(of: "%q", with: query)
                guard let (request, response) = try context.sendAgain(point, value) else { return nil }
                // The request once; then only what changed: the count and the time.
                if evidence.isEmpty { evidence = "Request: \(request.summary)\n" }
                evidence += "count to \(n): \(String(format: "%.2f", response.elapsed)) s\n"
                return response.elapsed
            }
            guard confirmed != nil else { continue }
            return Self.rule.finding(
                at: point,
                message: "SQL injection in '\(point.name)': an injected SQLite query's work delays the answer in step (time-based)",
                evidence: "Baseline: \(String(format: "%.2f", context.baseline.elapsed)) s\n" + evidence,
                web: WebFacts(technique: .time))
        }
        return nil
    }
}
