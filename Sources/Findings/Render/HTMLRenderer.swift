import Digest
import Foundation
import Support

/// One self-contained HTML page: summary counts by severity and tool, a findings table that sorts
/// when a header is clicked and filters by severity, tool and text, code snippets, notices.
/// No external resources; every value is HTML-escaped, and a Content-Security-Policy allows only
/// the page's own style and (by hash) its own script, so injected markup could not run anyway.
public struct HTMLRenderer: ReportRenderer {
    /// The page title.
    public var title: String
    /// Where files can be viewed (`https://github.com/o/r/blob/SHA/services/api/`): when set,
    /// locations link to `base + file#Lline`; without it they stay text.
    public var sourceBaseURL: String?

    /// Sentinel's version: the version shown for the built-in engines, which report none.
    public var version: String?

    /// Makes an HTML renderer; without `sourceBaseURL`, locations are plain text.
    public init(title: String = "Sentinel report", sourceBaseURL: String? = nil, version: String? = nil) {
        self.title = title
        self.version = version
        self.sourceBaseURL = sourceBaseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
    }

    /// The report as one self-contained HTML page.
    public func render(_ report: Report) -> String {
        let findings = report.findings.sorted { a, b in
            a.severity != b.severity ? a.severity > b.severity : Finding.reportOrder(a, b)
        }
        let scriptHash = Data(SHA256.hash(HTMLRenderer.script)).base64EncodedString()
        var html = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-\(scriptHash)'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>\(HTMLRenderer.style)</style>
            </head>
            <body>
            <header><h1>\(escape(title))</h1>
            <p class="meta">\(findings.count) finding\(findings.count == 1 ? "" : "s") · \(report.filesScanned) files scanned · \(TextRenderer.formatSeconds(report.durationSeconds))\
            \(report.suppressedCount > 0 ? " · \(report.suppressedCount) suppressed" : "")\
            \(report.baselinedCount > 0 ? " · \(report.baselinedCount) in baseline" : "")\
            \(report.belowSeverityCount > 0 ? " · \(report.belowSeverityCount) below --severity" : "")\
            \(report.belowConfidenceSummary.map { " · " + escape($0) } ?? "")\
            \(report.defaultExclusionSummary.map { " · " + escape($0) } ?? "")</p></header>

            """
        html += summary(report, findings: findings)
        html += controls(report, findings: findings)
        html += table(findings, report: report)
        html += notices(report)
        html += skippedFiles(report)
        html += "<script>\(HTMLRenderer.script)</script>\n</body>\n</html>\n"
        return html
    }

    // MARK: - Sections

    private func summary(_ report: Report, findings: [Finding]) -> String {
        let counts = findings.countsBySeverity()
        var html = "<section id=\"summary\">\n<div class=\"cards\">\n"
        // `unknown` (an advisory without any severity) gets a card only when there is one.
        for severity in Severity.allCases.reversed() where severity != .unknown || (counts[severity] ?? 0) > 0 {
            html +=
                "<div class=\"card sev-\(severity.rawValue)\" data-severity=\"\(severity.rawValue)\">"
                + "<span class=\"count\">\(counts[severity] ?? 0)</span> \(severity.rawValue)</div>\n"
        }
        html +=
            "</div>\n<table id=\"by-tool\"><thead><tr><th>Tool</th><th>Version</th><th>Status</th><th>Findings</th></tr></thead><tbody>\n"
        let byTool = findings.countsByTool()
        for name in report.toolNames {
            let run = report.tools.first { $0.name == name }
            let status = run.map { $0.status.rawValue + ($0.message.map { ": " + $0 } ?? "") } ?? "succeeded"
            // The built-in engines are Sentinel itself; an adapter that reported no version says so.
            let shown = run?.version ?? (ToolName.builtIn.contains(name) ? version.map { "Sentinel \($0)" } : nil) ?? "not reported"
            html +=
                "<tr data-tool=\"\(escape(name.rawValue))\"><td>\(escape(name.rawValue))</td><td>\(escape(shown))</td>"
                + "<td class=\"status-\(escape(run?.status.rawValue ?? "succeeded"))\">\(escape(status))</td>"
                + "<td class=\"num\">\(byTool[name] ?? 0)</td></tr>\n"
        }
        html += "</tbody></table>\n</section>\n"
        return html
    }

    private func controls(_ report: Report, findings: [Finding]) -> String {
        var html = "<section id=\"controls\">\n<label>Severity <select id=\"filter-severity\"><option value=\"\">all</option>"
        for severity in Severity.allCases.reversed() where severity != .unknown || findings.contains(where: { $0.severity == .unknown }) {
            html += "<option value=\"\(severity.rawValue)\">\(severity.rawValue)</option>"
        }
        html += "</select></label>\n<label>Tool <select id=\"filter-tool\"><option value=\"\">all</option>"
        for name in report.toolNames {
            html += "<option value=\"\(escape(name.rawValue))\">\(escape(name.rawValue))</option>"
        }
        html += "</select></label>\n<label>Text <input id=\"filter-text\" type=\"search\" placeholder=\"rule, file, message\"></label>\n"
        html += "<span id=\"shown\">\(findings.count) of \(findings.count)</span>\n</section>\n"
        return html
    }

    private func table(_ findings: [Finding], report: Report) -> String {
        // Fixed column widths keep long paths and messages from widening the page: they wrap.
        var html = """
            <table id="findings">
            <colgroup><col class="c-sev"><col class="c-tool"><col class="c-rule"><col class="c-loc"><col class="c-line">\
            <col class="c-conf"><col class="c-msg"></colgroup>
            <thead><tr><th data-key="sev" data-type="num" title="Sort">Severity</th><th data-key="tool">Tool</th>\
            <th data-key="rule">Rule</th><th data-key="loc">Location</th><th data-key="line" data-type="num">Line</th>\
            <th data-key="conf" data-type="num">Confidence</th><th>Message</th></tr></thead>
            <tbody>

            """
        for finding in findings {
            let location = finding.location
            html +=
                "<tr class=\"finding\" data-severity=\"\(finding.severity.rawValue)\" data-sev=\"\(finding.severity.rank)\""
                + " data-tool=\"\(escape(finding.tool.rawValue))\" data-rule=\"\(escape(finding.ruleId))\""
                + " data-loc=\"\(escape(location.artifact))\" data-line=\"\(location.startLine ?? 0)\""
                + " data-conf=\"\(finding.confidence.rank)\" data-fingerprint=\"\(escape(finding.fingerprint))\">"
            html += "<td><span class=\"badge sev-\(finding.severity.rawValue)\">\(finding.severity.rawValue)</span></td>"
            let help =
                report.rule(finding.ruleId)?.helpURI
                ?? finding.cwe.first.map { "https://cwe.mitre.org/data/definitions/\($0).html" }
            html += "<td>\(escape(finding.tool.rawValue))</td><td class=\"rule\">\(link(help, text: finding.ruleId))</td>"
            html +=
                "<td class=\"loc\">\(link(locationURL(location), text: location.displayString))</td>"
                + "<td class=\"num\">\(location.startLine.map(String.init) ?? "")</td>"
            html += "<td>\(finding.confidence.rawValue)</td><td class=\"message\">\(escape(finding.message))"
            html += details(finding)
            html += "</td></tr>\n"
        }
        html += "</tbody>\n</table>\n"
        if findings.isEmpty { html += "<p id=\"empty\">No findings.</p>\n" }
        return html
    }

    /// CWE, snippet, data flow, evidence, fix and references under the message.
    private func details(_ finding: Finding) -> String {
        var html = ""
        if !finding.cwe.isEmpty {
            html += "<div class=\"cwe\">" + finding.cwe.map { "CWE-\($0)" }.joined(separator: ", ") + "</div>"
        }
        if let snippet = finding.snippet, !snippet.isEmpty {
            let start = finding.location.startLine.map { " data-start=\"\($0)\"" } ?? ""
            html += "<pre class=\"snippet\"\(start)><code>\(escape(snippet))</code></pre>"
        }
        if !finding.codeFlow.isEmpty {
            // Source first, sink last; each location links to the code like the finding's own.
            html += "<ol class=\"flow\">"
            for step in finding.codeFlow {
                let location = link(locationURL(step.location), text: step.location.displayString)
                html += "<li><span class=\"loc\">\(location)</span> \(escape(step.message))</li>"
            }
            html += "</ol>"
        }
        if let evidence = finding.evidence, !evidence.isEmpty {
            html += "<details class=\"evidence\"><summary>Evidence</summary><pre>\(escape(evidence))</pre></details>"
        }
        html += proof(finding)
        if let fix = finding.fix {
            html += "<details class=\"fix\"><summary>Fix: \(escape(fix.description))</summary>"
            for replacement in fix.replacements {
                html += "<pre>\(escape(replacement.text))</pre>"
            }
            html += "</details>"
        }
        if !finding.references.isEmpty {
            // Real links, but nothing is fetched until the reader clicks one (http(s) only).
            html += "<div class=\"refs\">" + finding.references.map { link($0, text: $0) }.joined(separator: " ") + "</div>"
        }
        return html
    }

    /// What `--prove` showed: proven with its oracle, request and evidence, or not proven and why.
    private func proof(_ finding: Finding) -> String {
        let proof = finding.facts.proof
        guard let proven = proof.proven else { return "" }
        guard proven else { return "<div class=\"proof no\">Not proven: \(escape(proof.reason ?? ""))</div>" }
        var html = "<details class=\"proof yes\"><summary>Proven: \(escape(proof.oracle ?? ""))</summary>"
        if let request = proof.request { html += "<div>Request: <code>\(escape(request))</code></div>" }
        if let evidence = proof.evidence { html += "<pre>\(escape(evidence))</pre>" }
        return html + "</details>"
    }

    /// `<a href>` for an http(s) URL (anything else, `javascript:` included, stays text).
    func link(_ url: String?, text: String) -> String {
        guard let url, url.lowercased().hasPrefix("https://") || url.lowercased().hasPrefix("http://") else {
            return escape(text)
        }
        return "<a href=\"\(escape(url))\" rel=\"noopener noreferrer\" target=\"_blank\">\(escape(text))</a>"
    }

    /// The page for a file location under `sourceBaseURL`; a web (DAST) location is its URL.
    func locationURL(_ location: Location) -> String? {
        if location.isWeb { return location.url }
        guard let base = sourceBaseURL, let file = location.file, !file.hasPrefix("/"), !file.contains("..") else {
            return nil
        }
        return base + SARIFRenderer.percentEncode(file) + (location.startLine.map { "#L\($0)" } ?? "")
    }

    private func notices(_ report: Report) -> String {
        guard !report.notices.isEmpty else { return "" }
        var html = "<section id=\"notices\"><h2>Notices</h2><ul>\n"
        for notice in report.notices {
            let file = notice.file.map { "<code>\(escape($0))</code>: " } ?? ""
            html += "<li class=\"notice-\(notice.level.rawValue)\">\(file)\(escape(notice.message))\(fileGroups(notice))</li>\n"
        }
        return html + "</ul></section>\n"
    }

    /// A notice's files under each heading, folded: a tree's hundreds of files would bury the rest.
    private func fileGroups(_ notice: Notice) -> String {
        guard let groups = notice.fileGroups, !groups.isEmpty else { return "" }
        var html = ""
        for group in groups {
            html += "<details><summary>\(escape(group.kind)) (\(group.files.count))</summary><ul>"
            html += group.files.map { "<li><code>\(escape($0))</code></li>" }.joined()
            html += "</ul></details>"
        }
        return html
    }

    private func skippedFiles(_ report: Report) -> String {
        guard !report.skippedFiles.isEmpty else { return "" }
        var html = "<section id=\"skipped\"><h2>Skipped files</h2><ul>\n"
        for skipped in report.skippedFiles {
            html += "<li class=\"notice-warning\"><code>\(escape(skipped.file))</code>: skipped: \(escape(skipped.reason))</li>\n"
        }
        return html + "</ul></section>\n"
    }

    /// Escapes the five characters that matter in HTML text and quoted attributes.
    public func escape(_ text: String) -> String {
        HTMLRenderer.escape(text)
    }

    /// Escapes `& < > " '` so any string is safe as element text or a quoted attribute value;
    /// bidirectional control characters are shown as `[U+202E]`.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\u{200E}", "\u{200F}", "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}":
                // Bidi controls would reorder the displayed code ("Trojan Source"); show them.
                out += "[U+\(String(scalar.value, radix: 16, uppercase: true))]"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    // MARK: - Assets (static: no report data ever goes into the script, so its hash is fixed)

    static let style = """
        body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#1d2433;background:#fafbfc;overflow-wrap:anywhere}
        h1{margin:0 0 .2em}.meta{color:#5a6270;margin:0 0 1em}
        .cards{display:flex;gap:.6em;flex-wrap:wrap;margin-bottom:1em}
        .card{padding:.5em 1em;border-radius:6px;background:#fff;border:1px solid #d8dde3;min-width:6em}
        .card .count{font-size:1.6em;font-weight:600;display:block}
        table{border-collapse:collapse;width:100%;background:#fff;margin-bottom:1em}
        th,td{border:1px solid #d8dde3;padding:.35em .5em;text-align:left;vertical-align:top}
        th[data-key]{cursor:pointer;user-select:none;background:#eef1f5}
        th.asc::after{content:" \\25B2"}th.desc::after{content:" \\25BC"}
        #by-tool{width:auto}.num{text-align:right}
        .badge{padding:.1em .5em;border-radius:4px;color:#fff;font-weight:600;white-space:nowrap;display:inline-block}
        .sev-critical .count,.badge.sev-critical{background:#7b1fa2}.sev-unknown .count,.badge.sev-unknown{background:#4e342e}.sev-high .count,.badge.sev-high{background:#c62828}
        .sev-medium .count,.badge.sev-medium{background:#ef6c00}.sev-low .count,.badge.sev-low{background:#1565c0}
        .sev-info .count,.badge.sev-info{background:#607d8b}.card .count{color:#fff;padding:0 .3em;border-radius:4px}
        pre{background:#f3f5f8;padding:.4em;margin:.3em 0;white-space:pre-wrap;overflow-wrap:anywhere}
        #findings{table-layout:fixed}.c-sev{width:7em}.c-tool{width:6em}.c-rule{width:16%}.c-loc{width:22%}
        .c-line{width:4em}.c-conf{width:8em}td,th{overflow-wrap:anywhere;word-break:break-word}
        th{white-space:nowrap;overflow-wrap:normal;word-break:normal}
        #by-tool{max-width:100%}a{color:#0b57d0}
        @media (max-width:800px){#findings,#findings tbody,#findings tr,#findings td{display:block;width:auto}
        #findings thead,#findings colgroup{display:none}#findings tr{border-bottom:2px solid #d8dde3}}
        .cwe{color:#5a6270;font-size:.9em}.rule,.loc{font-family:ui-monospace,monospace;font-size:.9em}
        #controls{display:flex;flex-wrap:wrap;gap:1em;align-items:center;margin-bottom:.6em}
        .status-failed{color:#c62828;font-weight:600}.status-skipped{color:#5a6270}
        tr.hidden{display:none}ol.flow{margin:.3em 0;padding-left:1.8em}ol.flow li{margin:.1em 0}
        .proof.yes summary{color:#c62828;font-weight:600}.proof.no{color:#5a6270}
        """

    static let script = """
        (function () {
          var table = document.getElementById("findings");
          var body = table.tBodies[0];
          var rows = Array.prototype.slice.call(body.rows);
          var sev = document.getElementById("filter-severity");
          var tool = document.getElementById("filter-tool");
          var text = document.getElementById("filter-text");
          var shown = document.getElementById("shown");
          function apply() {
            var s = sev.value, t = tool.value, q = text.value.toLowerCase(), n = 0;
            rows.forEach(function (row) {
              var ok = (!s || row.dataset.severity === s) && (!t || row.dataset.tool === t) &&
                (!q || row.textContent.toLowerCase().indexOf(q) >= 0);
              row.classList.toggle("hidden", !ok);
              if (ok) { n++; }
            });
            shown.textContent = n + " of " + rows.length;
          }
          Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th) {
            if (!th.dataset.key) { return; }
            th.addEventListener("click", function () {
              var key = th.dataset.key, numeric = th.dataset.type === "num";
              var dir = th.classList.contains("desc") ? 1 : (th.classList.contains("asc") ? -1 : (numeric ? -1 : 1));
              Array.prototype.forEach.call(table.tHead.rows[0].cells, function (c) { c.classList.remove("asc", "desc"); });
              th.classList.add(dir === 1 ? "asc" : "desc");
              rows.sort(function (a, b) {
                var x = a.dataset[key], y = b.dataset[key];
                var c = numeric ? (Number(x) - Number(y)) : x.localeCompare(y);
                return c * dir;
              });
              rows.forEach(function (row) { body.appendChild(row); });
            });
          });
          // A link such as report.html#severity=high&tool=bandit&q=sql opens pre-filtered.
          location.hash.replace(/^#/, "").split("&").forEach(function (pair) {
            var kv = pair.split("="), value = decodeURIComponent(kv[1] || "");
            if (kv[0] === "severity") { sev.value = value; }
            if (kv[0] === "tool") { tool.value = value; }
            if (kv[0] === "q") { text.value = value; }
          });
          [sev, tool].forEach(function (el) { el.addEventListener("change", apply); });
          text.addEventListener("input", apply);
          apply();
          document.body.dataset.ready = "true";
        })();
        """
}
