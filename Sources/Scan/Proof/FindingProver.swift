import DAST
import Findings
import Foundation
import ScanCore
import Support

/// `sentinel scan --prove URL`: each taint finding whose source is a parameter of a route the
/// code names is tried against the running application, by the active check of its weakness,
/// sent to that route and that parameter only (``ProofTarget``). The requests go from the
/// sandboxed web worker, whose only egress is the application (``NativeDASTScanner``). A
/// confirmed finding gets `proven: true` with the request, the answer's excerpt and the
/// oracle; one the application answered without confirming gets `proven: false` and why.
public struct FindingProver: Sendable {
    /// The application, budgets, headers and login (`options.target` is the `--prove` URL).
    public var request: WebScanRequest
    /// At most this many findings are tried (the first, by severity then position).
    public var maxFindings = 200
    /// Findings below this confidence are not tried (nil: every one).
    public var minimumConfidence: Confidence?

    /// A prover for `request`.
    public init(request: WebScanRequest) {
        self.request = request
    }

    /// What the proof did, for the report's notices.
    public struct Summary: Sendable, Hashable {
        /// Findings tried.
        public var tried = 0
        /// Findings proven.
        public var proven = 0
        /// Requests sent.
        public var requests = 0
        /// Why the run stopped early, when it did.
        public var stoppedBy: String?
    }

    /// The targets of `findings`: one per finding that names a route, a request part and a
    /// parameter, with the checks of its CWE (no check: not tried, said so).
    static func targets(_ findings: [Finding]) -> [ProofTarget] {
        var targets: [ProofTarget] = []
        for (index, finding) in findings.enumerated() {
            let code = finding.facts.code
            guard finding.codeFlow.count > 0, code.taintSource == .remote, let route = code.route, let part = code.sourceIn,
                part != .handlerParameter, let parameter = code.sourceParameter, !parameter.isEmpty
            else { continue }
            let methods = code.routeMethods ?? []
            // A body goes with a method that has one; anything else with GET where the route takes it.
            let inBody = [RequestPart.form, .json, .formOrJSON, .body].contains(part)
            let method =
                inBody
                ? methods.first { $0 != "GET" && $0 != "HEAD" } ?? (methods.isEmpty ? "POST" : methods[0])
                : methods.contains("GET") ? "GET" : methods.first ?? "GET"
            targets.append(
                ProofTarget(
                    id: index, method: method, route: route, part: part, parameter: parameter,
                    checks: ProofTarget.checks(for: finding.cwe), others: code.routeParameters ?? []))
        }
        return targets
    }

    /// `findings` with the proof facts of those tried, and what the proof did. Throws as the
    /// web scan does (`--prove: ...` for an application that does not answer).
    public func prove(_ findings: [Finding], context: ScanContext) throws -> ([Finding], Summary) {
        var summary = Summary()
        let ranked = Self.targets(findings).filter { target in
            minimumConfidence.map { findings[target.id].confidence >= $0 } ?? true
        }.sorted { a, b in
            (findings[a.id].severity, -a.id) > (findings[b.id].severity, -b.id)
        }
        let targets = Array(ranked.prefix(maxFindings)).sorted { $0.id < $1.id }
        guard !targets.isEmpty else { return (findings, summary) }
        var options = request.options
        options.active = true
        options.proofs = targets.filter { !$0.checks.isEmpty }
        var out = findings
        for target in targets where target.checks.isEmpty {
            out[target.id].facts.proof = ProofFacts(
                proven: false, reason: "no check proves \(findings[target.id].cweTags.joined(separator: ", "))", requests: 0)
        }
        summary.tried = targets.count
        guard !options.proofs.isEmpty else { return (out, summary) }
        var worker = NativeDASTScanner(options: options, workerExecutable: request.workerExecutable)
        if let application = request.application { worker.application = (application, request.applicationRoot ?? ".") }
        let (outcome, hits) = try worker.runWorker(context: context)
        let credentials = Redactor(secrets: NativeDASTScanner.credentialValues(of: options), shapes: false)
        for proof in outcome.worker.proofs where out.indices.contains(proof.id) {
            let code = out[proof.id].facts.code
            let parameter = "\(code.sourceParameter ?? "") in the \(code.sourceIn?.rawValue ?? "request")"
            out[proof.id].facts.proof = Self.facts(of: proof, parameter: parameter, hits: hits, redactor: credentials)
            if out[proof.id].facts.proof.proven == true { summary.proven += 1 }
        }
        summary.requests = outcome.worker.requests
        if outcome.worker.stoppedBy != "complete" { summary.stoppedBy = outcome.worker.stoppedBy }
        return (out, summary)
    }

    /// The facts of one outcome: proven by an in-band finding the check was sure of, or by a
    /// canary hit on one of its probes; otherwise not proven, and why.
    static func facts(of proof: ProofOutcome, parameter: String, hits: [String: String], redactor: Redactor) -> ProofFacts {
        var facts = ProofFacts(proven: false, reason: proof.reason, requests: proof.requests)
        if let hit = proof.probes.first(where: { hits[$0.token] != nil }) {
            facts.proven = true
            facts.reason = nil
            facts.oracle = "out-of-band: the application fetched the canary's URL (\(redactor.redact(hits[hit.token] ?? "")))"
            (facts.request, facts.evidence) = evidence(hit.finding, parameter: parameter, redactor: redactor)
            return facts
        }
        guard let finding = proof.finding else {
            if !proof.probes.isEmpty { facts.reason = (facts.reason.map { $0 + "; " } ?? "") + "the canary was not fetched" }
            return facts
        }
        guard finding.confidence == .high else {
            facts.reason = "the check was not sure (\(finding.confidence.rawValue) confidence): \(redactor.redact(finding.message))"
            return facts
        }
        facts.proven = true
        facts.reason = nil
        let technique = finding.facts.web.technique?.rawValue ?? "output"
        facts.oracle = "\(technique): \(redactor.redact(finding.message))"
        (facts.request, facts.evidence) = evidence(finding, parameter: parameter, redactor: redactor)
        return facts
    }

    /// The request that proved `finding` (method, URL, `parameter` as the code names it: `q in
    /// the query`) and its evidence: the requests and the answers' excerpts the check kept.
    static func evidence(_ finding: Finding, parameter: String, redactor: Redactor) -> (String?, String?) {
        let location = finding.location
        let request = [location.method, location.url].compactMap { $0 }.joined(separator: " ") + " [\(parameter)]"
        return (redactor.redact(request), finding.evidence.map(redactor.redact))
    }
}
