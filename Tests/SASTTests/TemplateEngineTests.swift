import Findings
import Foundation
import TemplateSyntax
import Testing

@testable import SAST

/// Template rules: loading, conditions, framework gating, one finding per line.
@Suite struct TemplateEngineTests {
    static func rule(_ yaml: String) throws -> TemplateRule {
        guard case .template(let rule) = try RuleLoader.parseAny(yaml, file: "t.yaml") else { throw CancellationError() }
        return rule
    }

    static let safeRule = """
        id: template.t-safe
        message: safe
        severity: medium
        languages: [template]
        cwe: [79]
        construct: output
        context: [text]
        pattern-regex: '\\|\\s*safe\\b'

        """

    static func scan(_ rules: [TemplateRule], _ text: String, frameworks: Set<String>? = nil) -> [Finding] {
        let project = frameworks.map { modules in
            var project = ProjectFacts()
            project.modules = modules
            return project
        }
        return TemplateEngine(rules: rules).scan(file: "t.html", bytes: Array(text.utf8), project: project).findings
    }

    @Test func aContextConditionTwin() throws {
        let rule = try Self.rule(Self.safeRule)
        let found = Self.scan([rule], "<p>{{ a|safe }}</p>\n<a title=\"{{ b|safe }}\"></a>\n<p>{{ c }}</p>")
        #expect(found.map { $0.location.startLine } == [1])
        #expect(found.first?.location.startColumn == 8, "at the `|`")
    }

    @Test func frameworksGateARule() throws {
        var rule = try Self.rule(Self.safeRule)
        rule.scope.frameworks = ["django"]
        #expect(Self.scan([rule], "{{ a|safe }}", frameworks: ["flask"]).isEmpty)
        #expect(Self.scan([rule], "{{ a|safe }}", frameworks: ["django", "os"]).count == 1)
        #expect(Self.scan([rule], "{{ a|safe }}", frameworks: nil).count == 1, "rule tests: every framework")
    }

    @Test func aProjectWideProtectionRulesARuleOut() throws {
        var rule = try Self.rule(Self.safeRule)
        rule.scope.notRegex = try TemplateRegex(source: #"(?m)^[^#\n]*"django\.middleware\.csrf\.CsrfViewMiddleware""#)
        var project = ProjectFacts()
        let scoped = [ScopedRule(id: rule.id, scope: rule.scope)]
        let commented = "MIDDLEWARE = [\n    # \"django.middleware.csrf.CsrfViewMiddleware\",\n]\n"
        project.modules.formUnion(TemplateFiles.importedTopLevelModules(in: commented))
        project.ruleOut(scoped, text: commented)
        #expect(project.applies(rule.id, rule.scope), "a commented-out middleware protects nothing")
        let protected = "import django\nMIDDLEWARE = [\n    \"django.middleware.csrf.CsrfViewMiddleware\",\n]\n"
        project.modules.formUnion(TemplateFiles.importedTopLevelModules(in: protected))
        project.ruleOut(scoped, text: protected)
        #expect(!project.applies(rule.id, rule.scope))
        #expect(project.modules == ["django"])
        #expect(TemplateEngine(rules: [rule]).scan(file: "t.html", bytes: Array("{{ a|safe }}".utf8), project: project).findings.isEmpty)
    }

    @Test func aProjectWideProtectionIsSearchedOnlyWhereItsWordsAre() throws {
        // Every Python file is searched for it: the literal prefilter must reject most of them
        // without running the expression, and never a file that holds a match.
        let rules = try RuleSet.load(directories: [RuleFilesTests.rulesDirectory])
        let expressions = rules.scopedRules.compactMap(\.scope.notRegex)
        #expect(!expressions.isEmpty)
        let texts = [
            "MIDDLEWARE = [\n    'django.middleware.csrf.CsrfViewMiddleware',\n]\n",
            "MIDDLEWARE = [\n    # 'django.middleware.csrf.CsrfViewMiddleware',\n]\n",
            "csrf = CSRFProtect(app)\n", "SeaSurf (app)\n", "import os\nprint(os.getcwd())\n", "",
            "from flask_limiter import Limiter\n", "# import slowapi\n", "    throttle_classes = [UserRateThrottle]\n",
            "INSTALLED_APPS = ['axes']\n", "        xsrf_cookies=True,\n", "settings = {\"xsrf_cookies\": True}\n",
            "# xsrf_cookies=True\n", "xsrf_cookies=False\n", "        if user.login_attempts >= settings.MAX_LOGIN_ATTEMPTS:\n",
            "if failed_attempts > limit:\n", "if attempts >= max_attempts:\n",
            "x = '\u{212A}' # 'DJANGO.MIDDLEWARE.CSRF.CSRFVIEWMIDDLEWARE'\n",
        ]
        for expression in expressions {
            let icu = RegexGroupNames.icuSpelling(expression.source)
            #expect(!RegexLiterals(pattern: icu).required.isEmpty, "\(expression.source) has no literal prefilter")
            let raw = try NSRegularExpression(pattern: icu)
            for text in texts {
                let expected = raw.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
                #expect(expression.occurs(in: text) == expected, "\(expression.source) on \(text.debugDescription)")
            }
        }
    }

    @Test("Tornado's xsrf_cookies setting rejects every POST without the token: forms are not forgeable")
    func tornadoXSRFSettingRulesOutTheFormRule() throws {
        let rules = try RuleSet.load(directories: [RuleFilesTests.rulesDirectory])
        let form = try #require(rules.scopedRules.first { $0.id == "template.form-without-csrf-token" })
        let expression = try #require(form.scope.notRegex)
        #expect(expression.occurs(in: "app = tornado.web.Application(handlers,\n    xsrf_cookies=True,\n)\n"))
        #expect(expression.occurs(in: "settings = {\"xsrf_cookies\": True}\n"))
        #expect(!expression.occurs(in: "settings = {\"xsrf_cookies\": False}\n"))
        #expect(!expression.occurs(in: "# xsrf_cookies=True\n"))
    }

    @Test("a project's own lockout (login attempts compared with a limit) rules out the login rule; a retry loop does not")
    func aProjectsOwnLockoutRulesOutTheLoginRule() throws {
        let rules = try RuleSet.load(directories: [RuleFilesTests.rulesDirectory])
        let login = try #require(rules.scopedRules.first { $0.id == "python.login-without-rate-limit" })
        let expression = try #require(login.scope.notRegex)
        #expect(expression.occurs(in: "    if user.login_attempts >= settings.SECURITY_MAX_LOGIN_ATTEMPTS:\n"))
        #expect(expression.occurs(in: "if account.failed_attempts > MAX_FAILED:\n"))
        #expect(!expression.occurs(in: "if attempts >= max_attempts:\n"), "a retry loop is no lockout")
        #expect(!expression.occurs(in: "# if user.login_attempts >= 5:\n"))
    }

    @Test func theStrongestRuleOfALineAndCWEWins() throws {
        let weak = try Self.rule(Self.safeRule)
        var strong = weak
        strong.id = "template.t-strong"
        strong.severity = .high
        let found = Self.scan([weak, strong], "<p>{{ a|safe }}</p>")
        #expect(found.map(\.ruleId) == ["template.t-strong"])
    }

    @Test func badTemplateRulesAreErrorsNamingTheKey() {
        let cases = [
            (Self.safeRule.replacingOccurrences(of: "construct: output", with: "construct: block"), "bad construct"),
            (Self.safeRule.replacingOccurrences(of: "context: [text]", with: "context: [body]"), "bad context"),
            (Self.safeRule.replacingOccurrences(of: "construct: output", with: "construct: tag"), "'context' applies to outputs"),
            (Self.safeRule + "pattern: eval(...)\n", "unknown key 'pattern'"),
            (Self.safeRule.replacingOccurrences(of: "'\\|\\s*safe\\b'", with: "'(unclosed'"), "invalid regular expression"),
        ]
        for (yaml, message) in cases {
            #expect(throws: (any Error).self) { try RuleLoader.parseAny(yaml, file: "t.yaml") }
            do {
                _ = try RuleLoader.parseAny(yaml, file: "t.yaml")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }

    @Test func theShippedRulesReadHostileTemplates() throws {
        // One-line scripts without semicolons full of sink names, a template literal of `<`
        // without `${`, unterminated forms and tags, NUL bytes: the search stays bounded per
        // candidate (no quadratic regex), and one line holds at most one finding per rule.
        let rules = try RuleSet.load(directories: [RuleFilesTests.rulesDirectory]).templateRules
        let hostile = [
            "<script>" + String(repeating: "x.html(a + ' ", count: 20_000) + "</script>",
            "<script>var h = `" + String(repeating: "<b ", count: 50_000) + "`; $(h)</script>",
            "<script>" + String(repeating: "var h = '<i>' + v\n", count: 5_000) + "</script>",
            String(repeating: "<form method=post ", count: 20_000),
            "<form method=get>" + String(repeating: "<input type=text \0", count: 20_000),
        ]
        for text in hostile {
            let result = TemplateEngine(rules: rules).scan(file: "h.html", bytes: Array(text.utf8), project: nil)
            let perLine = Dictionary(grouping: result.findings) { "\($0.ruleId)#\($0.location.startLine ?? 0)" }
            #expect(perLine.values.allSatisfy { $0.count == 1 })
        }
    }

    @Test func templatesAreFoundBySyntaxOrDirectory() {
        #expect(TemplateFiles.isTemplate("a/page.html", bytes: Array("<p>{{ x }}</p>".utf8)))
        #expect(TemplateFiles.isTemplate("app/templates/plain.html", bytes: Array("<p>x</p>".utf8)))
        #expect(!TemplateFiles.isTemplate("docs/plain.html", bytes: Array("<p>{ x }</p>".utf8)))
        #expect(
            TemplateFiles.importedTopLevelModules(in: "import os.path\nfrom flask.views import View\nfrom . import x\n") == ["os", "flask"])
    }

    /// What a template binds itself leads back to the view's variable; calls and literals lead
    /// nowhere; included, extended and imported templates are listed.
    @Test func templateBindingsLeadToTheContext() {
        let document = TemplateDocument(
            bytes: Array(
                """
                {% extends "base.html" %}{% from 'macros.html' import field %}{% include "x/part.html" with a=b %}
                {% for k, v in pairs.items() %}{% set shown = v %}{% endfor %}
                {% with total = order.total, label = "x" %}{% endwith %}
                {% with user.profile as p %}{% endwith %}
                {% set html = render(x) %}
                {% with first=people.0 count=people|length %}{% endwith %}
                {% partialdef form %}{% csrf_token %}{% endpartialdef %}
                """.utf8))
        let bindings = TemplateBindings(document)
        #expect(bindings.references.map(\.name) == ["base.html", "macros.html", "x/part.html"])
        #expect(bindings.references.map(\.isolated) == [false, true, false])
        #expect(bindings.references[2].bindings == ["a": "b"])
        #expect(bindings.contextVariable(from: "shown") == "pairs")
        #expect(bindings.contextVariable(from: "k") == "pairs")
        #expect(bindings.contextVariable(from: "total") == "order")
        #expect(bindings.contextVariable(from: "label") == nil)
        #expect(bindings.contextVariable(from: "p") == "user")
        #expect(bindings.contextVariable(from: "html") == nil)
        #expect(bindings.contextVariable(from: "free") == "free")
        #expect(bindings.contextVariable(from: "first") == "people")
        #expect(bindings.contextVariable(from: "count") == "people")
        #expect(bindings.withPartials("<form>{% partial form %}</form>").contains("csrf_token"))
        #expect(!bindings.withPartials("<form>{% partial form_body %}</form>").contains("csrf_token"))
    }
}
