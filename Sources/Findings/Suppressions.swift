import SourcePositions

#if canImport(Glibc)
    import Glibc
#endif

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
/// languages) on the finding's line or alone on the line above, and the external tools' own
/// comments as their scanners declare them (`SuppressionSyntax`: Bandit's `# nosec [Bxxx]` on the
/// line, Semgrep's `# nosemgrep[: id]` on the line or alone above it), each hiding the issue
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

    /// Hides the findings that directives cover: `# sentinel: ignore` and the comments of
    /// `syntaxes` (a syntax not listed is plain text). `sources` returns the lines of a file
    /// (relative path as in `Location.file`), or `nil` when it cannot be read; each file is read once.
    ///
    /// `head` (a pull request's scan, `--since`): the lines the change writes. A directive counts
    /// only where the base revision already had it over the same code: its own line and the line
    /// it covers unchanged. A directive on a written line hides nothing and becomes a
    /// `sentinel.suppression-added` finding of `reviewSeverity`, in every file the change touches
    /// that holds a finding or is among `scannedFiles` (a `# nosec` added to a test file the scan
    /// leaves out is no suppression of anything it reports).
    public static func apply(
        to findings: [Finding], equivalence: RuleEquivalence = RuleEquivalence(), syntaxes: [SuppressionSyntax] = [],
        head: ChangedLines? = nil, reviewSeverity: Severity = .high, scannedFiles: Set<String> = [],
        sources: (String) -> LineIndex?
    ) -> SuppressionResult {
        let equivalence = equivalence.declaring(syntaxes)
        var directivesByFile: [String: [Int: [SuppressionDirective]]] = [:]
        var extra: [Finding] = []
        func written(_ file: String, _ line: Int) -> Bool {
            head?.lines[file]?.contains(line) ?? false
        }
        func directives(for file: String) -> [Int: [SuppressionDirective]] {
            if let cached = directivesByFile[file] { return cached }
            var byLine: [Int: [SuppressionDirective]] = [:]
            if let lines = sources(file) {
                for number in candidateLines(lines, syntaxes: syntaxes) {
                    let text = lines.text(ofLine: number)
                    let lineStart = lines.lineStarts[number - 1]
                    let found = parseLocated(bytes: Array(text.utf8), number: number, syntaxes: syntaxes).filter { located in
                        lines.commentStarts.map { $0.contains(lineStart + located.sign) } ?? true
                    }.map(\.directive)
                    guard !found.isEmpty else { continue }
                    for directive in found where directive.syntax == nil && directive.reason == nil {
                        extra.append(missingReasonFinding(file: file, directive: directive, text: text))
                    }
                    if written(file, number) {
                        extra += found.map {
                            ChangeReview.suppressionAdded(file: file, directive: $0, text: text, severity: reviewSeverity)
                        }
                        continue
                    }
                    byLine[number] = found
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
            // A directive alone above a line the change writes covered other code in the base.
            if !written(file, lines.lowerBound) { candidates += (byLine[lines.lowerBound - 1] ?? []).filter(\.coversNextLine) }
            if let directive = candidates.first(where: { $0.covers(finding, equivalence: equivalence, syntaxes: syntaxes) }) {
                var hidden = finding
                hidden.facts.pipeline.suppressionReason = directive.reason ?? ""
                hidden.facts.pipeline.suppressionKind = directive.kind
                suppressed.append(hidden)
            } else {
                kept.append(finding)
            }
        }
        // The suppressions a change adds where it has no finding yet are shown too.
        for file in (head?.lines.keys).map({ $0.sorted() }) ?? [] where scannedFiles.contains(file) { _ = directives(for: file) }
        return SuppressionResult(kept: kept, suppressed: suppressed, extraFindings: extra)
    }

    /// The directives on one line (at most one of each kind): `# sentinel: ignore`, then those
    /// of `syntaxes` in order. `number` is the 1-based line number.
    public static func parse(line: some StringProtocol, number: Int = 1, syntaxes: [SuppressionSyntax] = []) -> [SuppressionDirective] {
        parseLocated(bytes: Array(line.utf8), number: number, syntaxes: syntaxes).map(\.directive)
    }

    /// The directives on one line, each with the byte offset of its comment sign in the line.
    static func parseLocated(
        bytes: [UInt8], number: Int, syntaxes: [SuppressionSyntax]
    ) -> [(directive: SuppressionDirective, sign: Int)] {
        var result: [(directive: SuppressionDirective, sign: Int)] = []
        let firstCode = bytes.firstIndex { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") } ?? bytes.count
        // `{#` (a template comment) starts at its brace; its sign is the `#`.
        func sign(_ start: Int) -> Int { bytes[start] == UInt8(ascii: "{") ? start + 1 : start }
        if let (start, body) = findComment(marker: sentinelMarker, in: bytes) {
            if let directive = parseSentinel(body) {
                let found = SuppressionDirective(
                    ruleIds: directive.ids, reason: directive.reason, line: number,
                    column: column(of: start, in: bytes), standsAlone: start == firstCode)
                result.append((found, sign(start)))
            }
        }
        for syntax in syntaxes {
            guard let (start, body) = findComment(marker: syntax.marker, in: bytes), !isWordByte(body.first) else { continue }
            let found = SuppressionDirective(
                syntax: syntax, ruleIds: parseToolIds(body), line: number, column: column(of: start, in: bytes),
                standsAlone: start == firstCode)
            result.append((found, sign(start)))
        }
        return result
    }

    /// What starts Sentinel's own directive, after the comment sign.
    private static let sentinelMarker = "sentinel:"

    /// Whether any line of `lines` mentions a directive's marker (a file that does not needs no
    /// tokenizer to tell its comments).
    public static func mentionsMarker(_ lines: LineIndex, syntaxes: [SuppressionSyntax]) -> Bool {
        !candidateLines(lines, syntaxes: syntaxes).isEmpty
    }

    /// The lines that mention a directive's marker, ascending: only they can hold a directive,
    /// and a file with findings is mostly lines without (one search per marker, not a parse per line).
    static func candidateLines(_ lines: LineIndex, syntaxes: [SuppressionSyntax]) -> [Int] {
        var found = Set<Int>()
        lines.bytes.withUnsafeBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            for marker in [sentinelMarker] + syntaxes.map(\.marker) where !marker.isEmpty {
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

    /// A tool's ids after its marker: `B602, B607`, `B602,B607` or `: a.b, c`, up to the next
    /// `#`; names are kept too.
    private static func parseToolIds(_ body: ArraySlice<UInt8>) -> [String] {
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
