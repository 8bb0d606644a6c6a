import Foundation
import TestSupport
import Testing

@testable import Findings

@Suite struct SARIFRendererTests {
    static func parse(_ report: Report, sourceRoot: String? = nil) throws -> [String: Any] {
        let text = SARIFRenderer(sourceRoot: sourceRoot).render(report)
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// One engine's part of the log, as a run of its own.
    static func run(_ log: [String: Any], tool: String) -> [String: Any]? {
        SARIFEngines.view(log, tool: tool)
    }

    @Test func logHeaderOneRunWithEachEngineAnExtension() throws {
        let text = SARIFRenderer(version: "9.9.9").render(Fixtures.sampleReport())
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(log["version"] as? String == "2.1.0")
        #expect(log["$schema"] as? String == SARIFRenderer.schemaURI)
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let tool = try #require(runs[0]["tool"] as? [String: Any])
        let sentinelDriver = try #require(tool["driver"] as? [String: Any])
        #expect(sentinelDriver["name"] as? String == "Sentinel")
        #expect(sentinelDriver["version"] as? String == "9.9.9")
        #expect(SARIFEngines.names(log) == ["bandit", "dast", "native", "osv", "semgrep"])
        // Every result points at its engine's rule: rule.toolComponent.index, then rule.index there.
        let extensions = try #require(tool["extensions"] as? [[String: Any]])
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == Fixtures.sampleReport().findings.count)
        for result in results {
            let rule = try #require(result["rule"] as? [String: Any])
            let component = try #require((rule["toolComponent"] as? [String: Any])?["index"] as? Int)
            let index = try #require(rule["index"] as? Int)
            let rules = try #require(extensions[component]["rules"] as? [[String: Any]])
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            #expect(rule["id"] as? String == result["ruleId"] as? String)
            #expect(result["ruleIndex"] as? Int == index)
        }
        let bandit = try #require(Self.run(log, tool: "bandit"))
        let driver = try #require((bandit["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["version"] as? String == "1.7.9")
        #expect(driver["informationUri"] as? String == "https://bandit.readthedocs.io/")
        let semgrep = try #require(Self.run(log, tool: "semgrep"))
        #expect((semgrep["results"] as? [Any])?.isEmpty == true)
        let invocation = (semgrep["invocations"] as? [[String: Any]])?.first
        #expect(invocation?["executionSuccessful"] as? Bool == true)
        let note = (invocation?["toolExecutionNotifications"] as? [[String: Any]])?.first
        #expect((note?["message"] as? [String: Any])?["text"] as? String == "semgrep skipped: not installed")
    }

    @Test func rulesCarryHelpTagsAndSecuritySeverity() throws {
        let log = try Self.parse(Fixtures.sampleReport())
        let sentinel = try #require(Self.run(log, tool: "native"))
        let rules = try #require(((sentinel["tool"] as? [String: Any])?["driver"] as? [String: Any])?["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == ["python.sqli", "python.weak-hash"])
        let sqli = rules[0]
        #expect(sqli["name"] as? String == "SQL injection")
        #expect((sqli["shortDescription"] as? [String: Any])?["text"] as? String == "User input reaches a SQL query.")
        #expect(
            (sqli["fullDescription"] as? [String: Any])?["text"] as? String
                == "Data from an HTTP request flows into a SQL statement without parameters.")
        #expect((sqli["help"] as? [String: Any])?["text"] as? String == "Use parameterised queries.")
        #expect(((sqli["help"] as? [String: Any])?["markdown"] as? String)?.contains("[CWE-89](") == true)
        #expect(sqli["helpUri"] as? String == "https://cwe.mitre.org/data/definitions/89.html")
        #expect((sqli["defaultConfiguration"] as? [String: Any])?["level"] as? String == "error")
        let properties = try #require(sqli["properties"] as? [String: Any])
        #expect(properties["tags"] as? [String] == ["security", "injection", "CWE-89"])
        #expect(properties["security-severity"] as? String == "8.0")
        // A rule with no descriptor is synthesised from its findings.
        let weak = rules[1]
        #expect((weak["properties"] as? [String: Any])?["tags"] as? [String] == ["security", "CWE-327"])
        #expect((weak["defaultConfiguration"] as? [String: Any])?["level"] as? String == "warning")
        #expect((weak["properties"] as? [String: Any])?["precision"] as? String == "high", "from the findings' confidence")
        #expect(properties["precision"] == nil, "unknown for a descriptor without one")
    }

    @Test func resultsHaveLevelsLocationsFingerprintsAndFixes() throws {
        let log = try Self.parse(Fixtures.sampleReport(), sourceRoot: "/src/my app")
        let sentinel = try #require(Self.run(log, tool: "native"))
        let base = (sentinel["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] as? [String: Any]
        #expect(base?["uri"] as? String == "file:///src/my%20app/")
        let results = try #require(sentinel["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let weak = results[0]
        let sqli = results[1]
        #expect(sqli["ruleId"] as? String == "python.sqli")
        #expect(sqli["ruleIndex"] as? Int == 0)
        #expect(weak["ruleIndex"] as? Int == 1)
        #expect(sqli["level"] as? String == "error")
        #expect(weak["level"] as? String == "warning")
        #expect((sqli["message"] as? [String: Any])?["text"] as? String == Fixtures.sqlInjection().message)
        #expect((sqli["partialFingerprints"] as? [String: String])?[SARIFRenderer.fingerprintKey] == Fixtures.sqlInjection().fingerprint)
        let physical = try #require(((sqli["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any])
        let artifact = physical["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "app/db.py")
        #expect(artifact?["uriBaseId"] as? String == "%SRCROOT%")
        let region = try #require(physical["region"] as? [String: Any])
        #expect(region["startLine"] as? Int == 12)
        #expect(region["startColumn"] as? Int == 5)
        #expect(region["endLine"] as? Int == 12)
        #expect(region["endColumn"] as? Int == 40)
        #expect((region["snippet"] as? [String: Any])?["text"] as? String == Fixtures.sqlInjection().snippet)

        let fix = try #require((weak["fixes"] as? [[String: Any]])?.first)
        #expect((fix["description"] as? [String: Any])?["text"] as? String == "Use SHA-256")
        let change = try #require((fix["artifactChanges"] as? [[String: Any]])?.first)
        #expect((change["artifactLocation"] as? [String: Any])?["uri"] as? String == "app/crypto.py")
        let replacement = try #require((change["replacements"] as? [[String: Any]])?.first)
        #expect((replacement["insertedContent"] as? [String: Any])?["text"] as? String == "hashlib.sha256")
        #expect((replacement["deletedRegion"] as? [String: Any])?["endColumn"] as? Int == 18)

        // Advice-only fixes are not SARIF fixes (which need an edit) but are kept as a property.
        let osv = try #require((Self.run(log, tool: "osv")?["results"] as? [[String: Any]])?.first)
        #expect(osv["fixes"] == nil)
        #expect((osv["properties"] as? [String: Any])?["fixDescription"] as? String == "Upgrade requests to 2.20.0")
        #expect((osv["properties"] as? [String: Any])?["aliases"] as? String == "CVE-2018-18074")
        #expect(osv["level"] as? String == "note")
    }

    @Test func dastResultsAreLocatedByURL() throws {
        let log = try Self.parse(Fixtures.sampleReport())
        let result = try #require((Self.run(log, tool: "dast")?["results"] as? [[String: Any]])?.first)
        let physical = ((result["locations"] as? [[String: Any]])?.first)?["physicalLocation"] as? [String: Any]
        let artifact = physical?["artifactLocation"] as? [String: Any]
        #expect(artifact?["uri"] as? String == "http://127.0.0.1:8080/search?q=%3Cscript%3E")
        #expect(artifact?["uriBaseId"] == nil)
        #expect(physical?["region"] == nil)
        let request = result["webRequest"] as? [String: Any]
        #expect(request?["target"] as? String == "http://127.0.0.1:8080/search?q=%3Cscript%3E")
        #expect(request?["method"] as? String == "GET")
        #expect((result["properties"] as? [String: Any])?["parameter"] as? String == "q")
        #expect(result["level"] as? String == "error")
    }

    @Test func failedToolsAndNoticesBecomeInvocations() throws {
        let log = try Self.parse(Self.manyFindings())
        let bandit = try #require(Self.run(log, tool: "bandit"))
        let invocation = try #require((bandit["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        let note = (invocation["toolExecutionNotifications"] as? [[String: Any]])?.first
        #expect(note?["level"] as? String == "error")
        #expect((note?["message"] as? [String: Any])?["text"] as? String == "bandit failed: exit status 2")

        let sample = try Self.parse(Fixtures.sampleReport())
        let sentinel = try #require(Self.run(sample, tool: "native"))
        let notices = ((sentinel["invocations"] as? [[String: Any]])?.first)?["toolExecutionNotifications"] as? [[String: Any]]
        #expect(notices?.count == 1)
        #expect(notices?.first?["level"] as? String == "warning")
    }

    @Test func outputIsDeterministic() {
        var shuffled = Fixtures.sampleReport()
        shuffled.findings.reverse()
        shuffled.tools.reverse()
        #expect(SARIFRenderer().render(shuffled) == SARIFRenderer().render(Fixtures.sampleReport()))
    }

    @Test(arguments: [
        ("a b/c.py", "a%20b/c.py"), ("dir/ü.py", "dir/%C3%BC.py"), ("x#y?.py", "x%23y%3F.py"), ("plain/p-1_2.~py", "plain/p-1_2.~py"),
    ])
    func pathsArePercentEncoded(path: String, uri: String) {
        #expect(SARIFRenderer.percentEncode(path) == uri)
    }

    // MARK: - Schema validation with a real validator

    static let validator = """
        import json, sys
        import jsonschema
        schema = json.load(open(sys.argv[1], encoding="utf-8"))
        document = json.load(sys.stdin)
        checker = getattr(jsonschema.Draft4Validator, "FORMAT_CHECKER", None) or jsonschema.FormatChecker()
        validator = jsonschema.Draft4Validator(schema, format_checker=checker)
        errors = sorted(validator.iter_errors(document), key=lambda e: list(map(str, e.path)))
        for error in errors[:10]:
            print("/".join(map(str, error.path)) + ": " + error.message[:300])
        sys.exit(1 if errors else 0)
        """

    static var validatorAvailable: Bool {
        Fixtures.validatorPython != nil
    }

    static func validate(_ sarif: String) throws -> (ok: Bool, errors: String) {
        let python = try #require(Fixtures.validatorPython)
        let result = try Fixtures.run(python, ["-c", validator, Fixtures.sarifSchema], stdin: Data(sarif.utf8))
        return (result.status == 0, result.stdout + result.stderr)
    }

    static func manyFindings() -> Report {
        let severities = Severity.allCases
        let findings = (0..<300).map { i in
            Finding(
                ruleId: "rule.\(i % 17)", tool: ["native", "bandit", "semgrep"][i % 3], severity: severities[i % 5],
                confidence: Confidence.allCases[i % 3], message: "finding \(i)",
                location: Location(
                    file: "pkg/mod\(i % 23).py", startLine: i + 1, startColumn: (i % 7) + 1,
                    endLine: i + 2, endColumn: 3),
                cwe: i % 4 == 0 ? [] : [20 + i % 5], snippet: i % 2 == 0 ? "call(\(i))" : nil, enclosingScope: "f\(i % 5)")
        }
        return Report(
            findings: findings, tools: [ToolRun(name: "bandit", status: .failed, message: "exit status 2")],
            filesScanned: 23, durationSeconds: 3)
    }

    static func specialCharacters() -> Report {
        let finding = Finding(
            ruleId: "python.xss", severity: .high,
            message: "Ünïcödé \"quoted\" <script>alert('x')</script> \\ back\nslash\ttab \u{1} 日本語 🚀",
            location: Location(file: "src/dír with space/ファイル#1.py", startLine: 1, startColumn: 1),
            cwe: [79], evidence: "\u{0}nul and \u{7f}del", snippet: "print(f\"{x}\")  # ünï",
            facts: FindingFacts(other: ["note": "a \"b\" <c>"]), references: ["https://example.com/a b"])
        return Report(
            findings: [finding],
            rules: [
                RuleDescriptor(
                    id: "python.xss", name: "XSS <b>", shortDescription: "“smart” quotes",
                    helpMarkdown: "**bold** `code`", defaultSeverity: .high, cwe: [79])
            ],
            notices: [Notice(level: .info, message: "ℹ︎ note", file: "weird\"file.py")])
    }

    /// Named so that test logs show the name, not the whole report.
    static let reports: [String: Report] = [
        "empty": Report(), "sample": Fixtures.sampleReport(), "many findings": manyFindings(), "dast": dastOnly,
        "fixes": fixOnly, "unicode and special characters": specialCharacters(), "code flow and hidden findings": codeFlow(),
    ]

    /// A finding with a data flow (SARIF `codeFlows`) and a count of findings `--min-confidence` hid.
    static func codeFlow() -> Report {
        var report = Report(findings: [Fixtures.commandInjectionWithFlow(), Fixtures.sqlInjection()], tools: [ToolRun(name: "native")])
        report.belowConfidenceCount = 3
        report.minimumConfidence = .medium
        return report
    }

    static let fixOnly = Report(findings: [Fixtures.weakHash()], rules: [], tools: [ToolRun(name: "native", version: "0.1")])
    static let dastOnly = Report(findings: [Fixtures.reflectedXSS()], tools: [ToolRun(name: "dast", version: "1")])

    @Test(
        .enabled(if: validatorAvailable, "needs python with jsonschema (make test creates .venv)"),
        .needsCorpus("sarif/sarif-schema-2.1.0.json"),
        arguments: [
            "empty", "sample", "many findings", "dast", "fixes", "unicode and special characters", "code flow and hidden findings",
        ])
    func validatesAgainstSchema(name: String) throws {
        let report = try #require(Self.reports[name])
        for root in [nil, "/work/project"] as [String?] {
            let sarif = SARIFRenderer(sourceRoot: root).render(report.finalized())
            let (ok, errors) = try Self.validate(sarif)
            #expect(ok, "\(name): \(errors)")
        }
    }

    /// The validator must be able to say no, or the test above proves nothing.
    @Test(
        .enabled(if: validatorAvailable, "needs python with jsonschema"), .needsCorpus("sarif/sarif-schema-2.1.0.json"),
        arguments: [
            ("\"version\": \"2.1.0\"", "\"version\": \"2.0\""), ("\"startLine\": 12", "\"startLine\": 0"),
            ("\"level\": \"error\"", "\"level\": \"fatal\""), ("\"threadFlows\": [", "\"threadFlows\": \"none\", \"x\": ["),
        ])
    func validatorRejectsBrokenSARIF(original: String, broken: String) throws {
        var report = Fixtures.sampleReport()
        report.findings.append(Fixtures.commandInjectionWithFlow())
        let sarif = SARIFRenderer().render(report)
        #expect(sarif.contains(original))
        let (ok, _) = try Self.validate(sarif.replacingOccurrences(of: original, with: broken))
        #expect(!ok)
    }

    @Test func urisAreRelativeToTheRepositoryRootWithABaseIdEverywhere() throws {
        var report = Fixtures.sampleReport()
        report.findings[0].fix = Fix(
            description: "parameterise",
            replacements: [
                Fix.Replacement(startLine: 12, startColumn: 5, endLine: 12, endColumn: 40, text: "cursor.execute(q, (x,))")
            ])
        let text = SARIFRenderer(sourceRoot: "/repo", pathPrefix: "services/api").render(report)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let sentinel = try #require(Self.run(log, tool: "native"))
        let bases = sentinel["originalUriBaseIds"] as? [String: [String: String]]
        #expect(bases?["%SRCROOT%"]?["uri"] == "file:///repo/")
        // Every file artifact location (results, notices, fixes) carries the prefix and the base id.
        var fileLocations = 0
        var uris: Set<String> = []
        func visit(_ value: Any) {
            if let object = value as? [String: Any] {
                if let location = object["artifactLocation"] as? [String: Any], let uri = location["uri"] as? String,
                    !uri.hasPrefix("http")
                {
                    fileLocations += 1
                    uris.insert(uri)
                    #expect(uri.hasPrefix("services/api/"), "\(uri)")
                    #expect(location["uriBaseId"] as? String == "%SRCROOT%")
                }
                object.values.forEach(visit)
            } else if let array = value as? [Any] {
                array.forEach(visit)
            }
        }
        visit(log)
        #expect(fileLocations == 7, "4 file results, 1 notice, 2 fix changes")
        #expect(uris.contains("services/api/app/db.py") && uris.contains("services/api/app/broken.py"), "\(uris)")
        // Same root: no prefix.
        #expect(SARIFRenderer(sourceRoot: "/repo", pathPrefix: "").render(report).contains("app/db.py"))
        #expect(!SARIFRenderer(sourceRoot: "/repo", pathPrefix: ".").render(report).contains("\"./app"))
    }
}
