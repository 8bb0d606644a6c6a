import Findings
import Foundation
import TestSupport
import Testing
import Web

@testable import DAST

/// What only time or execution shows, on `blindapp.py`: SQLite whose result is thrown away (no
/// sleep there: a heavy query's work), and a file that is run rather than read or shown — locally
/// by a path, remotely by a URL — reported as file inclusion instead of path traversal or SSRF.
/// Serialized: the SQL scan keeps the CPU busy on purpose, and the other scan times nothing but
/// should not share two cores with it.
@Suite(.integration, .serialized, .enabled(if: VulnerableApp.pythonAvailable, "needs python3 to run the test application"))
struct BlindAndInclusionTests {
    /// An active scan of a fresh `blindapp.py` from `start` (its `sql/` or `inclusion/` index),
    /// with the in-band findings and the probes the canary saw.
    static func scan(from start: String, canary: CanaryListener? = nil) throws -> (WebScanResult, [Finding]) {
        let app = try VulnerableApp(script: "blindapp.py")
        defer { app.stop() }
        var options = WebScanOptions(target: app.url + start)
        options.active = true
        options.ratePerSecond = 0
        options.seed = 7
        options.canary = canary?.base()
        let result = try WebScan(options: options).run()
        let hits = canary?.tokens ?? [:]
        return (result, result.findings + result.probes.filter { hits[$0.token] != nil }.map(\.finding))
    }

    /// `path parameter` of the findings of `rule`, sorted, each once (an SSRF shown in band is
    /// also a probe the canary saw).
    static func points(_ findings: [Finding], _ rule: String) -> [String] {
        Set(
            findings.filter { $0.ruleId == "dast." + rule }.map {
                "\($0.location.url.flatMap(WebURL.init)?.path ?? "") \($0.location.parameter ?? "")"
            }
        ).sorted()
    }

    @Test("an INSERT and an empty-table lookup whose results are thrown away are found by a heavy query's time; not their twins")
    func blindSQLiteIsFoundByWork() throws {
        let (result, findings) = try Self.scan(from: "sql/")
        #expect(result.fatal == nil)
        #expect(Self.points(findings, "sqli") == ["/track page", "/vote item"], "\(findings.map(\.ruleId))")
        #expect(findings.filter { $0.ruleId == "dast.sqli" }.allSatisfy { $0.facts.web.technique == .time })
        // Nothing else claims the twins.
        #expect(!findings.contains { $0.location.url?.contains("-safe") == true && $0.cwe.contains(89) })
    }

    @Test("a file that is run is file inclusion, locally and by URL; the twins that show the file are traversal and SSRF")
    func inclusionReplacesTraversalAndSSRF() throws {
        let canary = try CanaryListener()
        defer { canary.stop() }
        let (result, findings) = try Self.scan(from: "inclusion/", canary: canary)
        #expect(result.fatal == nil)
        #expect(Self.points(findings, "file-inclusion") == ["/plugin name", "/remote url"], "\(findings.map(\.ruleId))")
        let remote = findings.first { $0.ruleId == "dast.file-inclusion" && $0.location.parameter == "url" }
        #expect(remote?.cwe == [98, 94] && remote?.facts.web.technique == .output)
        let local = findings.first { $0.ruleId == "dast.file-inclusion" && $0.location.parameter == "name" }
        #expect(local?.cwe == [98] && local?.facts.web.technique == .error)
        // The inclusion stands for the traversal and the fetch on its points; the twins keep theirs.
        #expect(Self.points(findings, "path-traversal") == ["/plugin-source name"])
        #expect(Self.points(findings, "ssrf") == ["/preview url"])
        #expect(Self.points(findings, "code-injection").isEmpty)
    }
}

/// The pieces of the two probes, without a server.
struct BlindAndInclusionUnitTests {
    @Test("the heavy query's delay is confirmed only when it follows the work asked for")
    func scalingOracle() throws {
        // A server doing 8 million counts a second: one calibration, then the four confirmations.
        var sent: [Int] = []
        let rate = 8_000_000.0
        let n = try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { n in
            sent.append(n)
            return 0.05 + Double(n) / rate
        }
        #expect(n == 12_000_000 && sent == [12_000_000, 12_000_000, 1, 24_000_000, 1])
        // Ten times faster: the first answer shows a little; scaled up once, then confirmed.
        sent = []
        let fast = try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { n in
            sent.append(n)
            return 0.05 + Double(n) / (rate * 10)
        }
        #expect(fast != nil && sent.count == 6 && sent[1] > 12_000_000)
        // Work that is not run: one request.
        sent = []
        let idle = try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { n in
            sent.append(n)
            return 0.06
        }
        #expect(idle == nil)
        #expect(sent.count == 1)
        // A server that is slow now and then, whatever is asked: never confirmed.
        var answers = [2.0, 2.0, 0.1, 2.0, 0.1].makeIterator()
        #expect(try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { _ in answers.next() } == nil)
        // A loaded moment spoils the doubled answer once: the round is tried again, whole, and the
        // second shows the pattern on its own.
        sent = []
        var spoiled = false
        let retried = try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { n in
            sent.append(n)
            if n == 24_000_000, !spoiled {
                spoiled = true
                return 0.05 + 12_000_000 / rate
            }
            return 0.05 + Double(n) / rate
        }
        #expect(retried == 12_000_000)
        #expect(sent == [12_000_000, 12_000_000, 1, 24_000_000, 12_000_000, 12_000_000, 1, 24_000_000, 1])
        var requests = 0
        // A loaded server that counts 1 million a second: the first count takes past the 10-second
        // timeout, which is taken as far too slow, not as no work; an eighth of it confirms.
        sent = []
        let loaded = try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { n in
            sent.append(n)
            let elapsed = 0.05 + Double(n) / 1_000_000
            return elapsed < 10 ? elapsed : nil
        }
        #expect(loaded == 1_500_000)
        #expect(sent == [12_000_000, 1_500_000, 1_500_000, 1, 3_000_000, 1])
        // A point that never answers the heavy query: given up after the calibrations.
        requests = 0
        #expect(
            try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { _ in
                requests += 1
                return nil
            } == nil)
        #expect(requests == ScalingOracle.calibrations)
        // A server slow for every answer (the control too): never confirmed, in a bounded number
        // of requests (every round calibrates, then stops at its control).
        requests = 0
        #expect(
            try ScalingOracle.confirms(baseline: 0.05, start: 12_000_000, limit: 1 << 28) { _ in
                requests += 1
                return 1.5
            } == nil)
        #expect(requests == ScalingOracle.rounds * 3)
    }

    @Test("SQLite's shapes: a lookup also gets the LIMIT that runs on an empty table, a number its arithmetic")
    func heavyShapes() {
        #expect(SQLInjectionCheck.heavyShapes(numeric: false, lookup: false, doubleQuotes: false) == ["'||substr(%q,1,0)||'"])
        #expect(
            SQLInjectionCheck.heavyShapes(numeric: true, lookup: true, doubleQuotes: false) == [
                "+0*%q", " LIMIT %q-- -", "'||substr(%q,1,0)||'",
            ])
        #expect(SQLInjectionCheck.heavyShapes(numeric: false, lookup: true, doubleQuotes: true).count == 3)
    }

    @Test("PHP's inclusion errors about the climbed-to file are recognised; a read's error and another file's are not")
    func phpInclusionErrors() {
        let php8 =
            "<br />\n<b>Warning</b>:  include(/../../../etc/passwd.php): Failed to open stream: No such file or directory in "
            + "<b>/var/www/html/index.php</b> on line <b>4</b><br />\n<b>Warning</b>:  include(): Failed opening "
            + "'/../../../etc/passwd.php' for inclusion (include_path='.:/usr/share/php') in <b>/var/www/html/index.php</b>"
        #expect(FileInclusionCheck.phpInclusion(php8) == "include(/../../../etc/passwd.php")
        let required = "PHP Fatal error:  Uncaught Error: Failed opening required '/etc/passwd.inc' (include_path='.')"
        #expect(FileInclusionCheck.phpInclusion(required) == "Failed opening required '/etc/passwd.inc")
        #expect(FileInclusionCheck.phpInclusion("Warning: readfile(/etc/passwd.txt): Failed to open stream") == nil)
        #expect(FileInclusionCheck.phpInclusion("Warning: include(header.php): Failed to open stream; see /etc/passwd") == nil)
        // A value shown in a page's script is not an error.
        #expect(FileInclusionCheck.phpInclusion("<script>require('/../../etc/passwd')</script>") == nil)
        #expect(FileInclusionCheck.phpInclusion("<p>Failed opening '/etc/passwd' is what you asked for</p>") == nil)
    }

    @Test("a syntax error counts where it is about the file: its name, its first line or line 1")
    func syntaxErrors() {
        #expect(FileInclusionCheck.syntaxError("<pre>SyntaxError: invalid syntax (passwd, line 1)</pre>") == "SyntaxError")
        let node = "/etc/passwd:1\nroot:x:0:0:root:/root:/bin/bash\n\nSyntaxError: Unexpected token ':'"
        #expect(FileInclusionCheck.syntaxError(node) != nil)
        #expect(FileInclusionCheck.syntaxError("<script>try { x() } catch (e) { if (e instanceof SyntaxError) {} }</script>") == nil)
    }

    @Test("the canary's code holds the factors, never their product, and is the same for a token every time")
    func canaryCode() {
        let (body, product) = CanaryRegistry.code(of: "sntabc12345")
        #expect(!body.contains(String(product)) && body.contains("<?php echo ") && body.contains("\nprint("))
        #expect(CanaryRegistry.code(of: "sntabc12345").product == product)
        #expect(CanaryRegistry.code(of: "sntabc12346").product != product)
        #expect(CanaryListener.servesCode("/inc/sntabc12345.php") && !CanaryListener.servesCode("/sntabc12345"))
        #expect(CanaryRegistry(base: "http://127.0.0.1:9/").codeURL(token: "t1") == "http://127.0.0.1:9/inc/t1")
    }
}
