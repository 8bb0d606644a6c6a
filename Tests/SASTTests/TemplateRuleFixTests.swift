import Findings
import Foundation
import Testing
import TemplateSyntax

@testable import SAST

/// The template rules' `fix-regex` rewrites: every `ruleid` case of a rule with one is fixed
/// (unless marked `{# nofix: #}`), the fix removes that finding and nothing else changes; and
/// representative rewrites give exactly the expected text.
@Suite("Template rule fixes")
struct TemplateRuleFixTests {
    static let fixRules: [String] = {
        guard let engine = try? RuleFilesTests.engine.get() else { return [] }
        return engine.rules.templateRules.filter { $0.fix != nil }.map(\.id)
    }()

    static func engine(_ id: String) throws -> (TemplateEngine, TemplateRule) {
        let engine = try RuleFilesTests.engine.get()
        let rule = try #require(engine.rules.templateRules.first { $0.id == id })
        return (TemplateEngine(rules: [rule]), rule)
    }

    @Test("the template rules with fixes are the expected ones")
    func fixedRules() {
        #expect(Self.fixRules == ["template.safe-filter"])
    }

    @Test("each ruleid case's fix applies, removes the finding and keeps the other lines", arguments: fixRules)
    func ruleTestFile(_ id: String) throws {
        let (engine, rule) = try Self.engine(id)
        let file = String(rule.file.dropLast(".yaml".count)) + ".html"
        let source = try String(contentsOfFile: file, encoding: .utf8)
        let document = TemplateDocument(bytes: Array(source.utf8))
        let ruleid = Set(TemplateRuleTests.annotations(document).filter { $0.ruleId == id && $0.expectsFinding }.map(\.line))
        let noFix = Set(TemplateRuleTests.noFixes(document).filter { $0.ruleId == id }.map(\.line))
        #expect(noFix.isSubset(of: ruleid), "\(file): nofix on lines without ruleid: \(noFix.subtracting(ruleid).sorted())")
        let findings = engine.scan(file: file, bytes: Array(source.utf8), project: nil).findings
        var fixed = 0
        for finding in findings {
            let line = try #require(finding.location.startLine)
            guard ruleid.contains(line) else { continue }
            if noFix.contains(line) {
                #expect(finding.fix == nil, "\(file):\(line): marked nofix but has a fix")
                continue
            }
            let fix = try #require(finding.fix, "\(file):\(line): no fix (mark the case nofix: \(id) if that is intended)")
            let after = try fix.apply(to: source)
            let old = source.split(separator: "\n", omittingEmptySubsequences: false)
            let new = after.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(old.count == new.count, "\(file):\(line): the fix added or removed lines")
            for (index, (a, b)) in zip(old, new).enumerated() where index + 1 != line {
                #expect(a == b, "\(file):\(line): the fix changed line \(index + 1)")
            }
            let again = engine.scan(file: file, bytes: Array(after.utf8), project: nil).findings
            #expect(!again.contains { $0.location.startLine == line }, "\(file):\(line): still reported after the fix")
            #expect(again.count == findings.count - 1, "\(file):\(line): the fix changed other findings")
            fixed += 1
        }
        #expect(fixed >= 2, "\(file): \(fixed) cases fixed")
    }

    @Test(
        "representative rewrites give exactly this text",
        arguments: [
            ("<p>{{ note.text | safe }}</p>\n", "<p>{{ note.text }}</p>\n"),
            ("<p>{{ note.text|safe|truncate(20) }}</p>\n", "<p>{{ note.text|truncate(20) }}</p>\n"),
            ("<ul>{{ items|safeseq|join:\", \" }}</ul>\n", "<ul>{{ items|join:\", \" }}</ul>\n"),
            (
                "{{ render_table(notes, responsive=True, safe_columns=['text']) }}\n",
                "{{ render_table(notes, responsive=True) }}\n"
            ),
            ("<input value=\"{{qs|safe}}\">\n", "<input value=\"{{qs}}\">\n"),
        ])
    func rewrite(source: String, expected: String) throws {
        let (engine, _) = try Self.engine("template.safe-filter")
        let findings = engine.scan(file: "t.html", bytes: Array(source.utf8), project: nil).findings
        let finding = try #require(findings.first)
        #expect(findings.count == 1)
        let fix = try #require(finding.fix)
        #expect(try fix.apply(to: source) == expected)
    }

    @Test("Markup(...) keeps its report and gets no fix")
    func markupHasNoFix() throws {
        let (engine, _) = try Self.engine("template.safe-filter")
        let findings = engine.scan(file: "t.html", bytes: Array("<div>{{ Markup(c.body) }}</div>\n".utf8), project: nil).findings
        #expect(findings.count == 1)
        #expect(findings.first?.fix == nil)
    }

    @Test("fix-regex: Semgrep's \\1 names a group, $ is literal; a rewrite that changes nothing is no fix")
    func fixRegexReplacement() throws {
        let fix = TemplateFix(regex: try TemplateRegex(source: #"\|\s*(\w+)"#), replacement: #"|e|\1$"#)
        #expect(fix.apply(to: "x | safe") == "x |e|safe$")
        let same = TemplateFix(regex: try TemplateRegex(source: "a"), replacement: "a")
        #expect(same.apply(to: "abc") == nil)
        let none = TemplateFix(regex: try TemplateRegex(source: "z"), replacement: "")
        #expect(none.apply(to: "abc") == nil)
    }
}
