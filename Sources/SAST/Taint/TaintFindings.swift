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
            // A remote source decides: it is the threat the rule is about; of several, the
            // shortest flow (the fewest assumptions).
            let flow = group.filter { !$0.origin.isLocal }.min { $0.origin.hops.count < $1.origin.hops.count } ?? group[0]
            var evidence = "\(flow.origin.label) at line \(flow.origin.line) flows to \(flow.sink.label)"
            if let via = flow.via { evidence += " through \(via)()" }
            if let file = flow.sink.file { evidence += " in \(file)" }
            var finding = builder.finding(rule, range: flow.reportRange, bindings: flow.sink.bindings, evidence: evidence)
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
            }
            finding.codeFlow = flow.origin.hops.map { hop in builder.step(hop) }
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
    }

    /// A proven flow supersedes the audit finding on the same line that names the same weakness:
    /// one finding, not two.
    static func supersedeAudits(_ findings: [Finding]) -> [Finding] {
        // Only a flow from a remote source proves the weakness; a local one is itself an audit.
        // (A long flow is low confidence for its length, and still a flow.)
        let proven = findings.filter(isProvenFlow)
        guard !proven.isEmpty else { return findings }
        return findings.filter { finding in
            guard finding.codeFlow.isEmpty, let line = finding.location.startLine else { return true }
            // An audit surer than the flow (a long one) stays.
            return !proven.contains { flow in
                flow.location.startLine == line && !Set(flow.cwe).isDisjoint(with: finding.cwe)
                    && flow.confidence >= finding.confidence
            }
        }
    }
}
