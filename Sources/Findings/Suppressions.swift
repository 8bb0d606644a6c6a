#if canImport(Glibc)
    import Glibc
#endif

/// One in-source suppression comment.
public struct SuppressionDirective: Sendable, Hashable {
    /// Which syntax it used, which decides the findings it can hide.
    public enum Kind: String, Sendable, Hashable {
        /// `# sentinel: ignore[ID, ...] reason` or `// sentinel: ignore...`: any tool's findings.
        case sentinel
        /// Bandit's `# nosec` / `# nosec B602, B607`: bare, every finding on the line; with ids,
        /// the findings of those Bandit tests and of the native rules that map to them.
        case nosec
        /// Semgrep's `# nosemgrep` / `# nosemgrep: rule-id`: bare, every finding on the line (or
        /// the next line when it stands alone); with ids, those Semgrep rules and the native
        /// rules that map to them.
        case nosemgrep
    }

    /// The syntax the comment used.
    public var kind: Kind
    /// The rule ids it names; empty means every rule. For `nosec`, Bandit test ids (`B602`) or
    /// names; for `nosemgrep`, Semgrep rule ids.
    public var ruleIds: [String]
    /// The justification after the ids; `nil` when none was written.
    public var reason: String?
    /// 1-based line of the comment.
    public var line: Int
    /// 1-based column where the comment starts.
    public var column: Int
    /// True when the line holds nothing but the comment, so it also covers the line below.
    public var standsAlone: Bool

    /// Whether this directive hides `finding`, ignoring position. A finding is known by its own
    /// rule id, the ids of the copies folded into it (`alsoReportedAs`) and, through
    /// `equivalence`, the Bandit/Semgrep/native ids of the same check, so each syntax hides the
    /// issue whichever tool reported it.
    public func covers(_ finding: Finding, equivalence: RuleEquivalence = RuleEquivalence()) -> Bool {
        if ruleIds.isEmpty { return true }
        let names = SuppressionDirective.names(of: finding, equivalence: equivalence)
        switch kind {
        case .sentinel:
            return ruleIds.contains { pattern in names.rules.contains { SuppressionDirective.matches(pattern: pattern, ruleId: $0) } }
        case .nosec:
            return ruleIds.contains { id in names.bandit.contains { $0.caseInsensitiveEquals(id) } }
        case .nosemgrep:
            return ruleIds.contains { id in names.semgrep.contains { RuleEquivalence.semgrepIdsMatch($0, id) } }
        }
    }

    /// Every id the finding's issue goes by: its rule id, the ids of the copies folded into it
    /// (`alsoReportedAs`), the Bandit test ids and names and Semgrep rule ids of its check (also
    /// as `bandit.B307` / `semgrep.<id>` rule ids), and, for an adapter's own finding, the native
    /// rules that cover its check. A native finding does not go by the other native rules that
    /// cover the same Bandit check (`eval-used` and `taint-code-injection` both map to B307, yet
    /// are two issues): so what an ignore hides never depends on which tools ran.
    static func names(of finding: Finding, equivalence: RuleEquivalence)
        -> (rules: [String], bandit: [String], semgrep: [String])
    {
        let folded = finding.facts.pipeline.alsoReportedAs ?? []
        var rules = [finding.ruleId]
        switch RuleID(finding.ruleId).tool {
        case ToolName.bandit: rules += equivalence.nativeRules(forBandit: finding.ruleId)
        case ToolName.semgrep: rules += equivalence.nativeRules(forSemgrep: finding.ruleId)
        default: break
        }
        var bandit: [String] = []
        var semgrep: [String] = []
        for id in ([finding.ruleId] + folded).map(RuleID.init) {
            if let testId = id.checkId(of: ToolName.bandit) {
                bandit.append(testId)
            } else if let checkId = id.checkId(of: ToolName.semgrep) {
                semgrep.append(checkId)
            }
        }
        for id in rules {
            bandit += equivalence.banditIds(forNative: id)
            semgrep += equivalence.semgrepIds(forNative: id)
        }
        if let testId = finding.facts.external.testId { bandit.append(testId) }
        if let name = finding.facts.external.testName ?? finding.facts.other["test_name"] { bandit.append(name) }
        rules += folded + bandit.map { "bandit." + $0 } + semgrep.map { "semgrep." + $0 }
        return (rules, bandit, semgrep)
    }

    /// Exact match, case-insensitive; a trailing `*` matches any suffix (`python.sqli.*`).
    static func matches(pattern: String, ruleId: String) -> Bool {
        if pattern.hasSuffix("*") {
            return ruleId.lowercased().hasPrefix(pattern.dropLast().lowercased())
        }
        return pattern.caseInsensitiveEquals(ruleId)
    }
}

extension StringProtocol {
    fileprivate func caseInsensitiveEquals(_ other: some StringProtocol) -> Bool {
        lowercased() == other.lowercased()
    }
}

/// What `Suppressions.apply` decided.
public struct SuppressionResult: Sendable, Hashable {
    /// Findings no directive covers.
    public var kept: [Finding]
    /// Findings a directive hid; `facts.pipeline.suppressionReason` holds the reason when given.
    public var suppressed: [Finding]
    /// New findings about the suppressions themselves (`sentinel.suppression-without-reason`).
    public var extraFindings: [Finding]
}

/// In-source suppressions (DESIGN §4): `# sentinel: ignore[RULE-ID] reason` (or `//` in C-like
/// languages) on the finding's line or alone on the line above, Bandit's `# nosec [Bxxx]` on the
/// line and Semgrep's `# nosemgrep[: id]` on the line or alone above it, each hiding the issue
/// whichever tool reported it (see `SuppressionDirective.covers`). A `sentinel` suppression
/// without a reason still works but is reported as a low finding, so every accepted risk has a
/// written justification.
public enum Suppressions {
    /// Rule id of the finding reported for a suppression without a reason.
    public static let missingReasonRuleId = "sentinel.suppression-without-reason"

    /// The descriptor of `missingReasonRuleId`, for reports that list rules.
    public static let missingReasonRule = RuleDescriptor(
        id: missingReasonRuleId, tool: ToolName.native, name: "Suppression without a reason",
        shortDescription: "A sentinel: ignore comment gives no reason for accepting the finding.",
        help: "Write why the finding is accepted after the rule ids: # sentinel: ignore[RULE-ID] reason",
        defaultSeverity: .low, tags: ["maintainability"])

    /// Hides the findings that directives cover. `sources` returns the lines of a file (relative
    /// path as in `Location.file`), or `nil` when it cannot be read; each file is read once.
    public static func apply(
        to findings: [Finding], equivalence: RuleEquivalence = RuleEquivalence(), sources: (String) -> LineIndex?
    ) -> SuppressionResult {
        var directivesByFile: [String: [Int: [SuppressionDirective]]] = [:]
        var extra: [Finding] = []
        func directives(for file: String) -> [Int: [SuppressionDirective]] {
            if let cached = directivesByFile[file] { return cached }
            var byLine: [Int: [SuppressionDirective]] = [:]
            if let lines = sources(file) {
                for number in candidateLines(lines) {
                    let text = lines.text(ofLine: number)
                    let found = parse(line: text, number: number)
                    guard !found.isEmpty else { continue }
                    byLine[number] = found
                    for directive in found where directive.kind == .sentinel && directive.reason == nil {
                        extra.append(missingReasonFinding(file: file, directive: directive, text: text))
                    }
                }
            }
            directivesByFile[file] = byLine
            return byLine
        }

        var kept: [Finding] = []
        var suppressed: [Finding] = []
        for finding in findings {
            guard let file = finding.location.file, let lines = finding.location.lineRange else {
                kept.append(finding)
                continue
            }
            let byLine = directives(for: file)
            var candidates: [SuppressionDirective] = lines.flatMap { byLine[$0] ?? [] }
            candidates += (byLine[lines.lowerBound - 1] ?? []).filter { $0.standsAlone && $0.kind != .nosec }
            if let directive = candidates.first(where: { $0.covers(finding, equivalence: equivalence) }) {
                var hidden = finding
                hidden.facts.pipeline.suppressionReason = directive.reason ?? ""
                hidden.facts.pipeline.suppressionKind = directive.kind.rawValue
                suppressed.append(hidden)
            } else {
                kept.append(finding)
            }
        }
        return SuppressionResult(kept: kept, suppressed: suppressed, extraFindings: extra)
    }

    /// The directives on one line (at most one of each kind). `number` is the 1-based line number.
    public static func parse(line: some StringProtocol, number: Int = 1) -> [SuppressionDirective] {
        let bytes = Array(line.utf8)
        var result: [SuppressionDirective] = []
        let firstCode = bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? bytes.count
        if let (start, body) = findComment(marker: "sentinel:", in: bytes) {
            if let directive = parseSentinel(body) {
                result.append(
                    SuppressionDirective(
                        kind: .sentinel, ruleIds: directive.ids, reason: directive.reason, line: number,
                        column: column(of: start, in: bytes), standsAlone: start == firstCode))
            }
        }
        if let (start, body) = findComment(marker: "nosec", in: bytes), !isWordByte(body.first) {
            result.append(
                SuppressionDirective(
                    kind: .nosec, ruleIds: parseNosecIds(body), reason: nil, line: number,
                    column: column(of: start, in: bytes), standsAlone: start == firstCode))
        }
        if let (start, body) = findComment(marker: "nosemgrep", in: bytes), !isWordByte(body.first) {
            result.append(
                SuppressionDirective(
                    kind: .nosemgrep, ruleIds: parseNosecIds(body), reason: nil, line: number,
                    column: column(of: start, in: bytes), standsAlone: start == firstCode))
        }
        return result
    }

    /// The lines that mention a directive's marker, ascending: only they can hold a directive,
    /// and a file with findings is mostly lines without (one search per marker, not a parse per line).
    static func candidateLines(_ lines: LineIndex) -> [Int] {
        var found = Set<Int>()
        lines.bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for marker in ["sentinel:", "nosec", "nosemgrep"] {
                let needle = Array(marker.utf8)
                var from = 0
                // memchr for the first byte (vectorised), then a compare: glibc's memmem is not
                // exported to Swift.
                while from + needle.count <= buffer.count, let hit = memchr(base + from, Int32(needle[0]), buffer.count - from) {
                    let offset = base.distance(to: UnsafeRawPointer(hit))
                    guard offset + needle.count <= buffer.count else { break }
                    if memcmp(hit, needle, needle.count) == 0 { found.insert(lines.line(containingOffset: offset)) }
                    from = offset + 1
                }
            }
        }
        return found.sorted()
    }

    // MARK: - Parsing helpers (bytes, no regex: this runs on the lines of files with findings)

    /// Finds `# marker` or `// marker` (spaces allowed after the comment sign). Returns the index
    /// of the comment sign and the bytes after the marker.
    private static func findComment(marker: String, in bytes: [UInt8]) -> (Int, ArraySlice<UInt8>)? {
        let needle = Array(marker.utf8)
        guard bytes.count >= needle.count else { return nil }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i] == needle[0] && bytes[i..<(i + needle.count)].elementsEqual(needle) {
                var j = i - 1
                while j >= 0 && (bytes[j] == UInt8(ascii: " ") || bytes[j] == UInt8(ascii: "\t")) { j -= 1 }
                if j >= 0 && bytes[j] == UInt8(ascii: "#") {
                    // A Jinja2/Django template comment, `{# ... #}`, starts at its brace.
                    return (j >= 1 && bytes[j - 1] == UInt8(ascii: "{") ? j - 1 : j, bytes[(i + needle.count)...])
                }
                if j >= 1 && bytes[j] == UInt8(ascii: "/") && bytes[j - 1] == UInt8(ascii: "/") {
                    return (j - 1, bytes[(i + needle.count)...])
                }
            }
            i += 1
        }
        return nil
    }

    /// `ignore[ID, ID] reason` → ids and reason; `nil` when the verb is not `ignore`.
    private static func parseSentinel(_ body: ArraySlice<UInt8>) -> (ids: [String], reason: String?)? {
        var rest = body.drop { isSpace($0) }
        let verb = Array("ignore".utf8)
        guard rest.starts(with: verb) else { return nil }
        rest = rest.dropFirst(verb.count)
        if let next = rest.first, isWordByte(next) { return nil }  // `ignored`, `ignore_me`
        var ids: [String] = []
        let afterSpace = rest.drop { isSpace($0) }
        if afterSpace.first == UInt8(ascii: "[") {
            let inside = afterSpace.dropFirst()
            guard let close = inside.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            ids = inside[..<close].split(separator: UInt8(ascii: ",")).map {
                String(decoding: $0, as: UTF8.self).trimmingSpaces()
            }.filter { !$0.isEmpty }
            rest = inside[(close + 1)...]
        }
        // A reason may be introduced by ':', '-' or an em dash; those alone are not a reason.
        var reason = String(decoding: rest, as: UTF8.self).trimmingSpaces()
        if reason.hasSuffix("#}") { reason = String(reason.dropLast(2)).trimmingSpaces() }  // `{# ... #}`
        while let first = reason.first, ":-—–".contains(first) {
            reason = String(reason.dropFirst()).trimmingSpaces()
        }
        return (ids, reason.isEmpty ? nil : reason)
    }

    /// `B602, B607` or `B602,B607` up to the next `#`; names are kept too.
    private static func parseNosecIds(_ body: ArraySlice<UInt8>) -> [String] {
        var rest = body
        if rest.first == UInt8(ascii: ":") { rest = rest.dropFirst() }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        return rest.split { $0 == UInt8(ascii: ",") || isSpace($0) }
            .map { String(decoding: $0, as: UTF8.self) }
            .filter { token in token.utf8.allSatisfy { isWordByte($0) } && !token.isEmpty }
    }

    private static func missingReasonFinding(file: String, directive: SuppressionDirective, text: String) -> Finding {
        Finding(
            ruleId: missingReasonRuleId, tool: ToolName.native, severity: .low, confidence: .high,
            message: "Suppression without a reason: write why the finding is accepted after ignore[...]",
            location: Location(file: file, startLine: directive.line, startColumn: directive.column),
            snippet: text)
    }

    private static func column(of index: Int, in bytes: [UInt8]) -> Int {
        SourceColumn.column(utf8Offset: index, in: bytes)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isWordByte(_ byte: UInt8?) -> Bool {
        guard let byte else { return false }
        return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var view = Substring(self)
        while let first = view.first, first == " " || first == "\t" || first == "\r" { view = view.dropFirst() }
        while let last = view.last, last == " " || last == "\t" || last == "\r" { view = view.dropLast() }
        return String(view)
    }
}
