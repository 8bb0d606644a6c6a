import DAST
import Findings
import Foundation
import TestSupport
import Testing
import Web

/// Issue 80: the worker's proof phase against the deliberately vulnerable application. Each
/// target's checks go to its route and its parameter only (no crawl): every seeded flaw is
/// confirmed, no safe twin is, and a route the application does not serve says so.
@Suite(.integration, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct ProofPhaseTests {
    /// Flaws a check proves quickly (no timing, no stored pass), by id; SSRF by the canary.
    static let proved = [
        "xss-reflected-body", "xss-reflected-post-form", "sqli-error", "sqli-boolean-numeric", "sqli-boolean-string",
        "cmdi-output", "path-traversal", "code-eval", "ssti", "open-redirect", "xpath-injection", "ldap-injection",
        "ssrf",
    ]

    static func target(id: Int, method: String?, path: String, parameter: String?, cwe: Int) -> ProofTarget {
        let method = method ?? "GET"
        return ProofTarget(
            id: id, method: method, route: path, part: method == "GET" ? .query : .form, parameter: parameter ?? "",
            checks: ProofTarget.checks(for: [cwe]))
    }

    @Test func provesEachSeededFlawAtItsParameterAndNoTwin() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let canary = try CanaryListener()
        defer { canary.stop() }
        let manifest = try VulnerableApp.manifest()
        let flaws = manifest.vulnerabilities.filter { Self.proved.contains($0.id) }
        #expect(flaws.count == Self.proved.count)
        var targets: [ProofTarget] = []
        for (index, flaw) in flaws.enumerated() {
            targets.append(Self.target(id: 2 * index, method: flaw.method, path: flaw.path, parameter: flaw.parameter, cwe: flaw.cwe))
            if let twin = flaw.twin {
                targets.append(
                    Self.target(id: 2 * index + 1, method: twin.method, path: twin.path, parameter: twin.parameter, cwe: flaw.cwe))
            }
        }
        targets.append(Self.target(id: 999, method: "GET", path: "/no/such/route", parameter: "q", cwe: 89))
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 42
        options.proofs = targets
        options.canary = canary.base()
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(result.fatal == nil)
        #expect(result.stoppedBy == "complete")
        #expect(result.proofs.map(\.id) == targets.map(\.id))
        let outcomes = Dictionary(uniqueKeysWithValues: result.proofs.map { ($0.id, $0) })
        for (index, flaw) in flaws.enumerated() {
            let proof = outcomes[2 * index]
            // In band, or out of band: the application fetched the canary URL a probe sent.
            let fetched = proof?.probes.contains { canary.tokens[$0.token] != nil } == true
            #expect(proof?.finding != nil || fetched, "\(flaw.id): not proven: \(proof?.reason ?? "no outcome")")
            #expect(
                proof?.finding.map {
                    $0.cwe.contains(flaw.cwe) || ProofTarget.checks(for: [flaw.cwe]).contains(String($0.ruleId.dropFirst(5)))
                } != false)
            #expect((proof?.requests ?? 0) > 0)
            if flaw.twin != nil {
                let twin = outcomes[2 * index + 1]
                #expect(twin?.finding == nil, "\(flaw.id): safe twin proven")
                #expect(twin?.probes.contains { canary.tokens[$0.token] != nil } != true, "\(flaw.id): safe twin fetched")
                // Not confirmed, or a 404 to a file name that names nothing (`/safe/files`).
                #expect(
                    twin?.reason.map { $0.contains("the check did not confirm it") || $0.contains("answered 404") } == true,
                    "\(twin?.reason ?? "")")
            }
        }
        #expect(outcomes[999]?.finding == nil)
        #expect(
            outcomes[999]?.reason == "GET /no/such/route [q] answered 404 (not found): the route is not reached, or not with this value")
        // Nothing but the targets' routes was asked: no crawl, no other page.
        let routes = Set(targets.map(\.route))
        let strays = transport.requests.filter { !routes.contains($0.url.path) }
        #expect(strays.isEmpty, "\(strays.map(\.url.string).prefix(5))")
        #expect(result.requests == transport.requests.count)
        #expect(result.proofs.reduce(0) { $0 + $1.requests } == result.requests)
    }

    /// A proof sends at most its share of the budget (`--max-requests-per-finding`): one whose
    /// checks would send more ends unconfirmed, saying so, and the next is still tried.
    @Test func eachProofKeepsToItsShareOfTheBudget() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let manifest = try VulnerableApp.manifest()
        let flaw = try #require(manifest.vulnerabilities.first { $0.id == "sqli-boolean-string" })
        let targets = (0..<3).map { Self.target(id: $0, method: flaw.method, path: flaw.path, parameter: flaw.parameter, cwe: flaw.cwe) }
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 42
        options.proofs = targets
        options.maxRequestsPerProof = 3
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(result.stoppedBy == "complete")
        #expect(result.proofs.count == 3)
        for proof in result.proofs {
            #expect(proof.finding == nil)
            #expect(proof.requests == 3, "\(proof.requests)")
            #expect(proof.reason?.hasSuffix("its share of 3 requests ended before a check confirmed it") == true, "\(proof.reason ?? "")")
        }
        // The same proofs with the default share are confirmed.
        options.maxRequestsPerProof = nil
        let whole = try WebScan(options: options, transport: RecordingTransport()).run()
        #expect(whole.proofs.allSatisfy { $0.finding != nil && $0.requests <= WebScan.defaultRequestsPerProof })
    }

    /// The route and the names are the repository's text: a route with a line break, a query or
    /// a host in it, and header and cookie names that would write another header, never leave
    /// the application's origin or its one request line and header each.
    @Test func hostileRoutesAndNamesStayInTheirPlace() throws {
        let app = try VulnerableApp()
        defer { app.stop() }
        let targets = [
            ProofTarget(id: 0, method: "GET", route: "/xss/reflect\r\nX-Evil: 1", part: .query, parameter: "q", checks: ["xss-reflected"]),
            ProofTarget(id: 1, method: "GET", route: "//evil.test/x?a=b#c", part: .query, parameter: "q", checks: ["xss-reflected"]),
            ProofTarget(id: 2, method: "GET", route: "/xss/reflect", part: .header, parameter: "X-A: 1\r\nX-B", checks: ["xss-reflected"]),
            ProofTarget(id: 3, method: "GET", route: "/xss/reflect", part: .cookie, parameter: "a=1; b", checks: ["xss-reflected"]),
            ProofTarget(id: 4, method: "GET", route: "/xss/reflect", part: .query, parameter: "q\r\nHost: evil", checks: ["xss-reflected"]),
        ]
        var options = WebScanOptions(target: app.url)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 42
        options.proofs = targets
        let transport = RecordingTransport()
        let result = try WebScan(options: options, transport: transport).run()
        #expect(result.proofs.count == targets.count)
        let origin = try #require(WebURL(app.url)).origin
        for request in transport.requests {
            #expect(request.url.origin == origin)
            let url = request.url.string
            let clean = !url.contains("\r") && !url.contains("\n") && !url.contains(" ")
            #expect(clean, "\(url)")
            for header in request.headers {
                #expect(!header.name.contains(where: { ":\r\n ".contains($0) }), "\(header.name)")
                #expect(!header.value.contains(where: { "\r\n".contains($0) }), "\(header.value)")
            }
        }
        let outcomes = Dictionary(uniqueKeysWithValues: result.proofs.map { ($0.id, $0) })
        #expect(outcomes[2]?.reason == "'X-A: 1\r\nX-B' cannot be sent as a header's name")
        #expect(outcomes[3]?.reason == "'a=1; b' cannot be sent as a cookie's name")
        #expect(outcomes[2]?.requests == 0 && outcomes[3]?.requests == 0)
    }

    @Test("the checks of a weakness: the check whose own CWE it is, else those whose list holds it")
    func checksOfAWeakness() {
        #expect(ProofTarget.checks(for: [89]) == ["sqli"])
        #expect(ProofTarget.checks(for: [78]) == ["command-injection"])
        #expect(ProofTarget.checks(for: [79]) == ["xss-reflected", "xss-jsonp-callback"])
        #expect(ProofTarget.checks(for: [94]).contains("code-injection"))
        #expect(ProofTarget.checks(for: [798]).isEmpty)
    }
}
