import Support

/// Compiler-style diagnostics, one per line (`path:line:col: high: [RULE] message`) with the data
/// flow indented under it, grouped by file with a blank line between files, then notices and a
/// summary line of counts by severity.
public struct TextRenderer: ReportRenderer {
    /// Whether to colour severities with ANSI escapes; the caller decides (stdout is a TTY).
    public var color: Bool
    /// Whether to print the matched source lines under each finding.
    public var showSnippets: Bool
    /// How much besides the findings is printed (`--quiet`, `--verbose`).
    public var verbosity: Verbosity = .normal

    /// `--quiet`: findings and errors only. `--verbose`: also snippets and each tool's count and time.
    public enum Verbosity: Sendable, Hashable {
        case quiet, normal, verbose
    }
    /// Whether to list failed tools; the CLI turns it off when it prints them on stderr and the
    /// report goes to the same terminal, so each error is printed once.
    public var showToolFailures: Bool = true

    /// Makes a text renderer; `color` adds ANSI colors (the caller checks isatty).
    public init(color: Bool = false, showSnippets: Bool = false, showToolFailures: Bool = true) {
        self.color = color
        self.showSnippets = showSnippets
        self.showToolFailures = showToolFailures
    }

    /// A renderer for `--quiet`/`--verbose`; verbose shows snippets.
    public init(color: Bool, verbosity: Verbosity) {
        self.color = color
        self.showSnippets = verbosity == .verbose
        self.verbosity = verbosity
    }

    /// The report as human-readable text for a terminal.
    public func render(_ report: Report) -> String {
        var lines: [String] = []
        var currentArtifact: String? = nil
        for finding in report.findings.sortedForReport() {
            let artifact = finding.location.artifact
            if let currentArtifact, currentArtifact != artifact { lines.append("") }
            currentArtifact = artifact
            lines.append(diagnostic(finding))
            if showSnippets, let snippet = finding.snippet {
                for line in snippet.split(separator: "\n", omittingEmptySubsequences: false) {
                    lines.append("    | " + TextRenderer.sanitize(line))
                }
            }
            if verbosity != .quiet { lines += flow(finding) + proof(finding) }
        }
        if !report.findings.isEmpty { lines.append("") }
        if verbosity == .verbose {
            let counts = report.findings.countsByTool()
            for tool in report.tools.sorted(by: { $0.name < $1.name }) where tool.status == .succeeded {
                let count = counts[tool.name] ?? 0
                let time = tool.durationSeconds.map { " in " + TextRenderer.formatSeconds($0) } ?? ""
                lines.append("\(paint("note", "36")): \(tool.name): \(count) finding\(count == 1 ? "" : "s")\(time)")
            }
        }
        for tool in report.tools.sorted(by: { $0.name < $1.name })
        where tool.status != .succeeded && (verbosity != .quiet || tool.status == .failed) {
            if tool.status == .failed && !showToolFailures { continue }
            let verb = tool.status == .failed ? "failed" : "skipped"
            let label = tool.status == .failed ? paint("error", "1;31") : paint("note", "36")
            // "bandit failed: X" already names the tool and the verb.
            if let message = tool.message, message.hasPrefix("\(tool.name) \(verb)") {
                lines.append("\(label): \(TextRenderer.sanitize(message))")
                continue
            }
            lines.append("\(label): \(tool.name) \(verb)" + (tool.message.map { ": " + TextRenderer.sanitize($0) } ?? ""))
        }
        // A note about one file (a Python 2 file read with the Python 2 dialect) is counted by a
        // note of its own; the files are listed with --verbose.
        for notice in report.notices
        where verbosity == .verbose || (verbosity == .normal && !(notice.level == .info && notice.file != nil))
            || notice.level == .error
        {
            let prefix = notice.file.map { TextRenderer.sanitize($0) + ": " } ?? ""
            let label = notice.level == .info ? "note" : notice.level.rawValue
            lines.append("\(prefix)\(label): \(TextRenderer.sanitize(notice.message))")
        }
        if verbosity != .quiet {
            for skipped in report.skippedFiles {
                lines.append("\(TextRenderer.sanitize(skipped.file)): note: skipped: \(TextRenderer.sanitize(skipped.reason))")
            }
            lines.append(summary(report))
        }
        if lines.isEmpty { return "" }
        // A line begins with a file's name, a name the repository chose (`::error file=…::x.py`):
        // no line may act as a CI runner's workflow command (issue 76, H7).
        return lines.map { DisplayText.inert($0) }.joined(separator: "\n") + "\n"
    }

    /// One finding as `location: severity: [rule] message`.
    public func diagnostic(_ finding: Finding) -> String {
        let severity = paint(finding.severity.rawValue, TextRenderer.colorCode(finding.severity))
        return "\(TextRenderer.sanitize(finding.location.displayString)): \(severity): "
            + "[\(TextRenderer.sanitize(finding.ruleId))] \(TextRenderer.sanitize(finding.message))"
    }

    /// The finding's data flow, one indented `path:line:col  message` line per step, source first.
    public func flow(_ finding: Finding) -> [String] {
        finding.codeFlow.map { step in
            "    \(TextRenderer.sanitize(step.location.displayString))  \(TextRenderer.sanitize(step.message))"
        }
    }

    /// What `--prove` showed of the finding: `proven: ORACLE` and the request, or `not proven:
    /// WHY`, each with the requests it took; nothing for a finding not tried.
    public func proof(_ finding: Finding) -> [String] {
        let proof = finding.facts.proof
        guard let proven = proof.proven else { return [] }
        // What the proof cost, said beside its outcome (its share is bounded: --max-requests-per-finding).
        let cost = proof.requests.map { $0 == 1 ? " (1 request)" : " (\($0) requests)" } ?? ""
        guard proven else {
            let why = TextRenderer.sanitize(proof.reason ?? "") + (proof.requests == 0 ? "" : cost)
            return ["    " + paint("not proven", "33") + ": " + why]
        }
        var lines = ["    " + paint("proven", "1;31") + ": " + TextRenderer.sanitize(proof.oracle ?? "")]
        if let request = proof.request { lines.append("      by " + TextRenderer.sanitize(request) + cost) }
        return lines
    }

    /// `3 findings: 1 critical, 1 high, 1 low (12 files scanned in 0.42 s)`, plus hidden counts
    /// and the files the default ignores left out.
    public func summary(_ report: Report) -> String {
        let counts = report.findings.countsBySeverity()
        let total = report.findings.count
        var text: String
        if total == 0 {
            text = "No findings"
        } else {
            let parts = Severity.allCases.reversed().compactMap { severity -> String? in
                guard let count = counts[severity], count > 0 else { return nil }
                return paint("\(count) \(severity.rawValue)", TextRenderer.colorCode(severity))
            }
            text = "\(total) finding\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
        }
        let files = report.filesScanned == 1 ? "1 file" : "\(report.filesScanned) files"
        text += " (\(files) scanned in \(TextRenderer.formatSeconds(report.durationSeconds)))"
        var hidden: [String] = []
        if report.suppressedCount > 0 { hidden.append("\(report.suppressedCount) suppressed") }
        if report.baselinedCount > 0 { hidden.append("\(report.baselinedCount) in baseline") }
        if report.belowSeverityCount > 0 { hidden.append("\(report.belowSeverityCount) below --severity") }
        if !report.skippedFiles.isEmpty {
            hidden.append("\(report.skippedFiles.count) file\(report.skippedFiles.count == 1 ? "" : "s") skipped")
        }
        if !hidden.isEmpty { text += "; " + hidden.joined(separator: ", ") }
        if let hidden = report.belowConfidenceSummary { text += "; " + hidden }
        if let excluded = report.defaultExclusionSummary { text += "; " + excluded }
        return text
    }

    private func paint(_ text: String, _ code: String) -> String {
        color ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }

    static func colorCode(_ severity: Severity) -> String {
        switch severity {
        case .critical: "1;35"
        case .unknown: "1;31"
        case .high: "1;31"
        case .medium: "33"
        case .low: "34"
        case .info: "2"
        }
    }

    /// Tool output is untrusted: control characters (ANSI escapes included) would let a scanned
    /// file repaint the terminal, so they are shown as `\u{..}` and newlines as spaces.
    static func sanitize(_ text: some StringProtocol) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0a, 0x0d: out.append(" ")
            case 0x09: out.append("\t")
            // Bidi controls too (`DisplayText`'s one definition): "Trojan Source" text must not
            // reorder what the reader sees.
            case let value where DisplayText.actsOnTerminal(value): out += "\\u{\(String(value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func formatSeconds(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 1e12 else { return "? s" }
        let hundredths = (seconds * 100).rounded()
        let whole = Int(hundredths / 100)
        let fraction = Int(hundredths.truncatingRemainder(dividingBy: 100))
        return "\(whole).\(fraction < 10 ? "0" : "")\(fraction) s"
    }
}
