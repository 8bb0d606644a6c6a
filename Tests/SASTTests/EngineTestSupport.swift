import Findings

@testable import SAST

/// Builds an engine from one YAML rule body (id, message, severity filled in).
func engine(rule body: String, id: String = "test.rule") throws -> SASTEngine {
    let yaml = "id: \(id)\nmessage: found $FUNC\nseverity: high\nlanguages: [python]\ncwe: [78]\n" + body
    return SASTEngine(rules: try RuleSet(rules: [try RuleLoader.parse(yaml, file: "test.yaml")]))
}

/// Start lines of the findings `rule` produces in `source`.
func findingLines(rule body: String, source: String) throws -> [Int] {
    try engine(rule: body).scan(file: "t.py", source: source).findings.compactMap(\.location.startLine)
}

/// A search rule with one `pattern:` (YAML-quoted as a block scalar).
func patternRule(_ pattern: String) -> String {
    "pattern: |\n" + pattern.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n") + "\n"
}

/// The start of a JavaScript taint rule: `mode: taint` and the query of an Express-style handler's
/// request (plain or async) as its source; a rule adds its `sinks:` (and `sanitizers:`).
let javaScriptRequestTaint = """
    mode: taint
    sources:
      - pattern: $REQ.query
        pattern-inside: |
          function $H($REQ, $RES) { ... }
      - pattern: $REQ.query
        pattern-inside: |
          async function $H($REQ, $RES) { ... }

    """
