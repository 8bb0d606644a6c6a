/// The boolean-inference step the SQL and XPath checks share: each condition that holds must
/// answer like the original, each that fails must not, and the failing answers like each other.
enum BooleanProbe {
    /// True when every `holds` value answers like the baseline and every `fails` value differs.
    /// Returns the first failing answer's status as evidence.
    static func confirms(_ point: InsertionPoint, context: ActiveContext, holds: [String], fails: [String]) throws -> Bool {
        guard let compare = try ResponseComparison.calibrate(point, context: context, injected: holds + fails) else {
            return false
        }
        var failing: [WebResponse] = []
        for (isTrue, isFalse) in zip(holds, fails) {
            guard let (_, trueAnswer) = try context.send(point, isTrue), compare.same(trueAnswer, context.baseline),
                let (_, falseAnswer) = try context.send(point, isFalse), compare.differs(falseAnswer, context.baseline)
            else { return false }
            failing.append(falseAnswer)
        }
        return zip(failing, failing.dropFirst()).allSatisfy { compare.same($0, $1) }
    }

    /// True when the answer to `original + "'"` (or `"`) differs from the baseline: quoting matters
    /// at this point, so string-context boolean probes are worth sending.
    static func quoteMatters(_ point: InsertionPoint, context: ActiveContext, quote: String = "'") throws -> Bool {
        guard let (_, answer) = try context.send(point, point.original + quote) else { return false }
        return ResponseSimilarity.ratio(answer, context.baseline, value: point.original + quote, original: point.original) < 0.99
    }
}
