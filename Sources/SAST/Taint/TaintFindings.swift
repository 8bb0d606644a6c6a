import Findings
import PythonSyntax

/// Turns a taint rule's flows into findings: one per sink line, the severity and confidence set
/// by where the data came from (and a rule's `confidence: low`), the path kept as the evidence (and the code flow).
enum TaintFindings {
    static func build(_ rule: Rule, flows: [TaintFlow], builder: FindingBuilder) -> [Finding] {
        var byLine: [Int: [TaintFlow]] = [:]
        var order: [Int] = []
        for flow in flows {
            let line = flow.reportRange.start.line
            if byLine[line] == nil { order.append(line) }
            byLine[line, default: []].append(flow)
        }
        var out: [Finding] = []
        for line in order {
            guard let group = byLine[line] else { continue }
            // A remote source decides: it is the threat the rule is about; of several, a client's
            // data before a library caller's, one into a sink shown to be the library's, then the
            // shortest flow (the fewest assumptions).
            func rank(_ flow: TaintFlow) -> (Int, Int, Int) {
                (flow.origin.isLibrary ? 1 : 0, flow.sink.lacksEvidence ? 1 : 0, flow.origin.hops.count)
            }
            let flow = group.filter { !$0.origin.isLocal }.min { rank($0) < rank($1) } ?? group[0]
            var evidence = "\(flow.origin.label) at line \(flow.origin.line) flows to \(flow.sink.label)"
            if let via = flow.via { evidence += " through \(via)()" }
            if let file = flow.sink.file { evidence += " in \(file)" }
            // The fix rewrites what the sink's focus names, where the sink is in this file.
            let fixRange = flow.sink.file == nil ? flow.sink.focusRange : nil
            var finding = builder.finding(
                rule, range: flow.reportRange, bindings: flow.sink.bindings, evidence: evidence, fixRange: fixRange)
            if flow.origin.isLocal {
                // Environment, argv, stdin: the operator's own input (CodeQL's `-local` queries).
                finding.severity = min(finding.severity, .medium)
                finding.confidence = .low
                finding.facts.code.taintSource = .local
            } else {
                // A flow is evidence, unless the rule says its flows are weak evidence (judged on
                // real code, issue 55): those stay below the default report.
                finding.confidence = rule.confidence == .low ? .low : .high
                finding.facts.code.taintSource = .remote
                finding.facts.code.sourceIn = flow.origin.requestPart
                if flow.origin.requestPart != nil { finding.facts.code.sourceParameter = flow.origin.requestName }
            }
            finding.codeFlow = flow.origin.hops.map { hop in builder.step(hop) }
            if flow.origin.isLibrary, !flow.origin.isLocal {
                // A package's caller decides what it passes: a weakness of the API, not proof of
                // an attack (CodeQL's library-input threat model): reported, below the gate.
                finding.severity = min(finding.severity, .medium)
                if finding.confidence > .medium { finding.confidence = .medium }
                finding.message += Self.libraryInputNote
            }
            if finding.confidence > .low, flow.sink.lacksEvidence {
                // Identity by evidence: a method of that name on a receiver nothing resolves to the
                // library (a query builder's `find` binds its values) is not proof of the weakness.
                finding.confidence = .low
                finding.message += Self.noEvidenceNote
            }
            if finding.confidence > .low, finding.codeFlow.count >= longFlowSteps {
                // Every step past the source (a call followed, a value kept in a container or an
                // object, a result assumed from its arguments) is an assumption; on real code the
                // long flows were mostly wrong, on vulnerable apps the flaws are a few steps long
                // (issue 55: 12 of 13 long flows false on realcode-dev, 1 of 37 RealVuln flaws).
                finding.confidence = .low
                finding.message += longFlowNote(steps: finding.codeFlow.count)
            }
            out.append(finding)
        }
        return out
    }

    /// What the message of a flow from a package's exported function's parameter ends with.
    static let libraryInputNote = " (from a parameter of a function the package exports: its callers decide the value)"

    /// What the message of a flow into a sink without its `evidence:` ends with.
    static let noEvidenceNote = " (nothing shows the sink is the library's, by import or construction: low confidence)"

    /// Flows of this many steps or more (source and sink included) are reported at low confidence.
    static let longFlowSteps = 6

    /// What the message of a flow lowered for its length ends with.
    static func longFlowNote(steps: Int) -> String {
        " (a flow of \(steps) steps: each is an assumption, so low confidence)"
    }

    /// Whether `finding` is a flow the rule holds as proof (`high`), or one lowered only for its
    /// length: a flow either way, where a rule's `confidence: low` flows are not.
    static func isProvenFlow(_ finding: Finding) -> Bool {
        guard finding.facts.code.taintSource == .remote, !finding.codeFlow.isEmpty else { return false }
        return finding.confidence == .high || finding.message.hasSuffix(longFlowNote(steps: finding.codeFlow.count))
            || finding.message.hasSuffix(noEvidenceNote) || finding.message.hasSuffix(libraryInputNote)
    }

    /// Whether the audit's fix calls another function than the code it replaces (`yaml.load(...)`
    /// becomes `yaml.safe_load(...)`): the sink is a call, so such a fix can remove it, where one
    /// that keeps the callee and changes an argument (`autoescape=True` on a template built from
    /// the request) leaves the flow as it was.
    static func callsAnother(_ audit: Finding) -> Bool {
        guard let replacement = audit.fix?.replacements.first,
            replacement.startLine == replacement.endLine, replacement.startLine == audit.location.startLine,
            let line = audit.snippet?.split(separator: "\n", omittingEmptySubsequences: false).first
        else { return false }
        let characters = Array(line)
        let start = replacement.startColumn - 1
        let end = replacement.endColumn - 1
        guard start >= 0, end <= characters.count, start < end else { return false }
        func callee(_ text: some StringProtocol) -> Substring? {
            guard let paren = text.firstIndex(of: "(") else { return nil }
            let name = text[..<paren]
            guard !name.isEmpty, name.allSatisfy({ $0 == "." || $0 == "_" || $0.isLetter || $0.isNumber }) else { return nil }
            return Substring(name)
        }
        guard let old = callee(String(characters[start..<end])), let new = callee(replacement.text) else { return false }
        return old != new
    }

    /// A proven flow supersedes the audit finding on the same line that names the same weakness:
    /// one finding, not two. A flow without a fix takes the fix of an audit it supersedes (the
    /// audit's rule rewrites that call: `yaml.load(f, Loader=yaml.Loader)` becomes
    /// `yaml.safe_load(f)` whichever rule reported it); heal's re-scan still checks the flow is gone.
    static func supersedeAudits(_ findings: [Finding]) -> [Finding] {
        // Only a flow from a remote source proves the weakness; a local one is itself an audit.
        // (A long flow is low confidence for its length, and still a flow.)
        let proven = findings.filter(isProvenFlow)
        guard !proven.isEmpty else { return findings }
        // `flow` is one of `proven` (so proven already).
        func supersedes(_ flow: Finding, _ finding: Finding) -> Bool {
            guard finding.codeFlow.isEmpty, let line = finding.location.startLine else { return false }
            // An audit surer than the flow (a long one) stays.
            return flow.location.startLine == line && !Set(flow.cwe).isDisjoint(with: finding.cwe)
                && flow.confidence >= finding.confidence
        }
        return findings.compactMap { finding in
            if proven.contains(where: { supersedes($0, finding) }) { return nil }
            guard finding.fix == nil, isProvenFlow(finding),
                let fixed = findings.first(where: { $0.fix != nil && supersedes(finding, $0) && callsAnother($0) })
            else { return finding }
            var copy = finding
            copy.fix = fixed.fix
            return copy
        }
    }
}
