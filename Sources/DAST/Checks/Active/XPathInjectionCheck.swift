import Findings

/// XPath injection: a stray quote makes the XPath engine fail (its error text in the answer),
/// or lower-case `or`/`and` conditions — XPath's only spelling — decide the answer and a
/// condition only XPath can evaluate (`string-length`, an unknown column to SQL) agrees. Runs
/// after the SQL check and defers to it on the same parameter.
public struct XPathInjectionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "xpath-injection", name: "XPath injection", severity: .high, cwe: [643, 91],
        help: "Pass values to XPath as variables (XPathVariableResolver, lxml's $var), or escape quotes; never concatenate input.")
    static let errors = [
        "XPathEvalError", "XPathSyntaxError", "javax.xml.xpath", "XPathException", "SimpleXMLElement::xpath()",
        "DOMXPath::query()", "Expression must evaluate to a node-set", "xmlXPathEval:", "System.Xml.XPath.XPathException",
        "XPST0003",
    ]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Error-based, then boolean-based.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        guard !context.reported.contains(SQLInjectionCheck.rule.ruleId), try context.reacts(point) else { return [] }
        if let hit = try ErrorProbe.first(point, context: context, suffixes: ["'", "\""], signatures: Self.errors) {
            return [
                Self.rule.finding(
                    at: point, message: "XPath injection in '\(point.name)': a \(hit.suffix) breaks the XPath query",
                    evidence: hit.evidence, web: WebFacts(technique: .error))
            ]
        }
        // Single- or double-quoted literals (XPath has both), where that quote changes the answer —
        // unless its answer is a database's error: the value reaches SQL, not XPath.
        for quote in ["'", "\""] where try BooleanProbe.quoteMatters(point, context: context, quote: quote) {
            let answer = context.answers.recall(point.original + quote)?.1.text ?? ""
            guard !SQLInjectionCheck.errors.contains(where: answer.contains) else { continue }
            let value = point.original
            let q = quote
            // Each true value has a false twin of the same length, so a parser error that quotes a
            // position is the same for both.
            let holds = ["\(value)\(q) or \(q)a\(q)=\(q)a", "\(value)\(q) or \(q)b\(q)=\(q)b"]
            let fails = ["\(value)\(q) or \(q)a\(q)=\(q)b", "\(value)\(q) or \(q)b\(q)=\(q)c"]
            // SQL accepts lower-case conditions too: the last word is a condition in XPath's own
            // function, which SQL answers with an error.
            let narrowHolds = ["\(value)\(q) and \(q)a\(q)=\(q)a", "\(value)\(q) and \(q)b\(q)=\(q)b"]
            let narrowFails = ["\(value)\(q) and \(q)a\(q)=\(q)b", "\(value)\(q) and \(q)b\(q)=\(q)c"]
            let narrows = try BooleanProbe.confirms(point, context: context, holds: narrowHolds, fails: narrowFails)
            let confirmed: Bool
            if narrows {
                confirmed = try answersAlike(
                    point, context: context, "\(value)\(q) and string-length(\(q)ab\(q))=2 and \(q)a\(q)=\(q)a",
                    point.original, injected: holds + fails)
            } else {
                // A widening condition only where it reads more rows: `or` in an UPDATE or a
                // DELETE reaches every row.
                confirmed =
                    try point.endpoint.isLookup && widens(point, context: context, quote: q, holds: holds, fails: fails)
                    && answersAlike(
                        point, context: context, "\(value)\(q) or string-length(\(q)ab\(q))=2 or \(q)a\(q)=\(q)b", holds[0],
                        injected: holds + fails)
            }
            guard confirmed else { continue }
            return [
                Self.rule.finding(
                    at: point, message: "XPath injection in '\(point.name)': injected XPath conditions decide the answer",
                    evidence: "Request (true): \(point.request(narrows ? narrowHolds[0] : holds[0]).summary)\n"
                        + "Request (false): \(point.request(narrows ? narrowFails[0] : fails[0]).summary)",
                    web: WebFacts(technique: .boolean))
            ]
        }
        return []
    }

    /// True when `value` answers like `reference` (both sent before or now; remembered answers
    /// are not sent again).
    private func answersAlike(
        _ point: InsertionPoint, context: ActiveContext, _ value: String, _ reference: String, injected: [String]
    ) throws -> Bool {
        guard let compare = try ResponseComparison.calibrate(point, context: context, injected: injected + [value]),
            let (_, answer) = try context.send(point, value)
        else { return false }
        let expected = reference == point.original ? context.baseline : try context.send(point, reference)?.1
        return expected.map { compare.same(answer, $0) } ?? false
    }

    /// The tautologies answer alike and unlike the original; the contradictions answer like an
    /// empty match (both alike).
    private func widens(
        _ point: InsertionPoint, context: ActiveContext, quote: String, holds: [String], fails: [String]
    ) throws -> Bool {
        // The tautology must answer unlike the original and unlike the lone quote (a tautology that
        // does not parse fails as the quote does); then the first pair must differ before the
        // second is asked for.
        let broken = context.answers.recall(point.original + quote)?.1
        guard let compare = try ResponseComparison.calibrate(point, context: context, injected: holds + fails),
            let (_, first) = try context.send(point, holds[0]), compare.differs(first, context.baseline),
            broken.map({ compare.differs(first, $0) }) ?? true,
            let (_, none) = try context.send(point, fails[0]), compare.differs(first, none),
            let (_, second) = try context.send(point, holds[1]), compare.same(first, second),
            let (_, none2) = try context.send(point, fails[1])
        else { return false }
        return compare.same(none, none2)
    }
}
