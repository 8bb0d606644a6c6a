import Findings

/// File inclusion: the parameter names a file the server runs as code (PHP's `include` and
/// `require`; Python's `exec`, `compile` or `runpy` of a file; Node's `require`), which is worse
/// than reading it (path traversal) or fetching it (SSRF): whatever the file holds runs.
///
/// Local: the path-traversal climb to `/etc/passwd` (the same request that check sends, so
/// shared) answers with the interpreter's error about that file instead of, or beside, its
/// text — PHP's `include(…passwd…): failed to open stream` or `Failed opening '…passwd…' for
/// inclusion`; or a syntax error about the file, confirmed by the same climb to `/dev/null`
/// answering none (empty code runs; a parser of data — `ast.literal_eval`, JSON — fails on
/// empty text too, and `<unknown>`, `ast`'s file name, must not show). Remote (CWE-94 too): a URL on the canary that serves code printing a product, and
/// the product in the answer — the fetched text ran, where a fetch that shows it holds only the
/// factors. Runs before the path-traversal and SSRF checks, which defer to it on its points.
///
/// Cost: the climb (shared), one `/dev/null` climb where a syntax error showed, and one canary
/// URL per non-numeric point when the scan has a canary.
public struct FileInclusionCheck: ActiveCheck {
    static let rule = WebRule(
        id: "file-inclusion", name: "File inclusion (a file chosen by input is run as code)", severity: .critical, cwe: [98, 94],
        help:
            "Never include, require, exec or import a file or URL named by input: map the input to a fixed list of files, and keep remote inclusion off."
    )
    /// The control of a syntax error: a file every Unix host has, empty, that runs as code without one.
    static let empty = "/../../../../../../../../../../dev/null"
    /// PHP's inclusion errors: the function or phrase before the file name, and what PHP writes
    /// after it (from the closing character on), so that a value merely shown in a page's
    /// `require('…')` is not taken for one.
    static let phpErrors: [(opening: String, after: String)] = [
        ("include(", "): failed to open stream"), ("include_once(", "): failed to open stream"),
        ("require(", "): failed to open stream"), ("require_once(", "): failed to open stream"),
        ("Failed opening '", "' for inclusion"), ("Failed opening &#039;", "&#039; for inclusion"),
        ("Failed opening required '", "' (include_path"), ("Failed opening required &#039;", "&#039; (include_path"),
    ]
    /// A parser's complaint about the file's content (Python's and JavaScript's).
    static let syntaxErrors = ["SyntaxError", "invalid syntax"]
    /// What, within 300 characters of the complaint, shows it is about the file: its name, its
    /// first line, or line 1 (a page's script that merely names `SyntaxError` shows none).
    static let aboutTheFile = ["passwd", "root:", "line 1"]
    /// The file name `ast.parse` gives (behind `ast.literal_eval`): data parsed, not code run.
    static let dataParser = ["<unknown>", "&lt;unknown&gt;"]

    /// The rules it reports.
    public var rules: [WebRule] { [Self.rule] }

    /// A check.
    public init() {}

    /// Local inclusion first (its climb is sent anyway), then remote; never on a number.
    public func test(_ point: InsertionPoint, context: ActiveContext) throws -> [Finding] {
        guard !point.isNumeric else { return [] }
        if let finding = try local(point, context) { return [finding] }
        if let finding = try remote(point, context) { return [finding] }
        return []
    }

    private func local(_ point: InsertionPoint, _ context: ActiveContext) throws -> Finding? {
        let baseline = context.baseline.text
        guard let (request, answer) = try context.send(point, PathTraversalCheck.climb) else { return nil }
        if let quoted = Self.phpInclusion(answer.text), Self.phpInclusion(baseline) == nil {
            var finding = Self.rule.finding(
                at: point, message: "File inclusion in '\(point.name)': a file the value names is included (PHP)",
                evidence: Evidence.of(request, answer, around: quoted), web: WebFacts(technique: .error))
            finding.cwe = [98]
            return finding
        }
        guard let syntax = Self.syntaxError(answer.text), Self.syntaxError(baseline) == nil,
            !Self.dataParser.contains(where: answer.text.contains),
            let (_, control) = try context.send(point, Self.empty), Self.syntaxError(control.text) == nil
        else { return nil }
        var finding = Self.rule.finding(
            at: point,
            message: "File inclusion in '\(point.name)': a file the value names is run as code (a syntax error about /etc/passwd)",
            evidence: Evidence.of(request, answer, around: syntax)
                + "\nRequest: \(point.request(Self.empty).summary) → no syntax error (empty code runs)",
            web: WebFacts(technique: .error))
        finding.cwe = [98]
        return finding
    }

    private func remote(_ point: InsertionPoint, _ context: ActiveContext) throws -> Finding? {
        guard let canary = context.canary else { return nil }
        let token = context.markers.marker()
        let (body, product) = CanaryRegistry.code(of: token)
        let printed = String(product)
        guard !context.baseline.text.contains(printed),
            let (request, answer) = try context.send(point, canary.codeURL(token: token)), answer.text.contains(printed)
        else { return nil }
        return Self.rule.finding(
            at: point, message: "Remote file inclusion in '\(point.name)': code fetched from a URL the scan named was run",
            evidence: Evidence.of(request, answer, around: printed)
                + "\nThe canary served \(body.debugDescription); the answer holds the product, not the text.",
            web: WebFacts(technique: .output))
    }

    /// The PHP inclusion error in `text` that quotes a path to `passwd`, if any.
    static func phpInclusion(_ text: String) -> String? {
        for (opening, after) in phpErrors {
            let closing = after.first ?? ")"
            var rest = text[...]
            while let range = rest.range(of: opening) {
                let tail = rest[range.upperBound...]
                let quoted = tail.prefix(300).prefix { $0 != closing && $0 != "\n" }
                let next = tail[quoted.endIndex...].prefix(after.count)
                if quoted.contains("passwd"), next.lowercased() == after.lowercased() { return opening + quoted }
                rest = tail
            }
        }
        return nil
    }

    /// The syntax-error signature `text` holds beside a sign that it is about the file, if any.
    static func syntaxError(_ text: String) -> String? {
        for signature in syntaxErrors {
            var rest = text[...]
            while let range = rest.range(of: signature) {
                let start = text.index(range.lowerBound, offsetBy: -300, limitedBy: text.startIndex) ?? text.startIndex
                let end = text.index(range.upperBound, offsetBy: 300, limitedBy: text.endIndex) ?? text.endIndex
                if aboutTheFile.contains(where: text[start..<end].contains) { return signature }
                rest = rest[range.upperBound...]
            }
        }
        return nil
    }
}
