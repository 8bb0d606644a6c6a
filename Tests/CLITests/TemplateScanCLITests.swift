import Foundation
import Testing

/// Issue 29: templates are files to scan too. A small Flask app with a Jinja2 template, scanned
/// with the shipped rules as a user would: findings carry the template's file, line and column,
/// go through the same pipeline (a `{# sentinel: ignore[...] reason #}` comment hides one), and a
/// template without Python around it gets no framework-only rule.
@Suite(.serialized) struct TemplateScanCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"

    static let app = """
        from flask import Flask, render_template, request

        app = Flask(__name__)


        @app.route("/search")
        def search():
            return render_template("search.html", q=request.args.get("q", ""))

        """

    static let template = """
        {% extends "base.html" %}
        {% block content %}
        <p>You searched for {{ q|safe }}</p>
        <p>{{ banner|safe }}</p>  {# sentinel: ignore[template.safe-filter] the banner is our own HTML #}
        <script>var query = "{{ q|safe }}";</script>
        <form method="post" action="/comment">
          <input name="text">
        </form>
        <p>{{ q }}</p>
        {% endblock %}

        """

    static func tree(_ files: [String: String]) throws -> String { try CLI.tree(texts: files, prefix: "sentinel-templates") }

    /// `ruleId@file:line:column` of each finding of a JSON report.
    static func findings(_ json: String) throws -> [String] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try #require(report["findings"] as? [[String: Any]])
        return findings.compactMap { finding in
            guard let id = finding["ruleId"] as? String, let location = finding["location"] as? [String: Any] else { return nil }
            let file = location["file"] as? String ?? "?"
            return "\(id)@\(file):\(location["startLine"] as? Int ?? 0):\(location["startColumn"] as? Int ?? 0)"
        }.sorted()
    }

    @Test func aFlaskTemplateIsScannedWithThePythonCode() throws {
        let root = try Self.tree(["app.py": Self.app, "templates/search.html": Self.template])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home))
        #expect(scan.status == 0, "\(scan.stderr)")
        // The banner's |safe on line 4 is suppressed by its template comment.
        #expect(
            try Self.findings(scan.stdout) == [
                "template.form-without-csrf-token@templates/search.html:6:1",
                "template.safe-filter-in-script@templates/search.html:5:26",
                "template.safe-filter@templates/search.html:3:25",
            ])
    }

    /// Issue 55: `|safe` on what every view passes as markup it escaped (a helper calling
    /// `escape`, a dict filled with such values, a rendered template) is not reported; on a value
    /// from the request or from the database, it is; on a variable no view is seen passing (a
    /// view the project does not show), it is reported at low confidence.
    @Test func safeMarkupFromEveryViewIsNotReported() throws {
        let app = """
            from flask import Flask, render_template, request
            from markupsafe import escape
            from django.template.loader import render_to_string

            app = Flask(__name__)


            def to_html(text):
                return escape(text).replace("\\n", "<br>")


            @app.route("/mail")
            def mail():
                data = {}
                data["subject"] = to_html(request.args["subject"])
                data["body"] = request.args["body"]
                return render_to_string("mail.html", context=data)


            @app.route("/note/<int:id>")
            def note(id):
                extra = None
                if id:
                    extra = app.jinja_env.from_string("<b>{{ n }}</b>").render(n=id)
                return render_template("note.html", extra=extra, text=Note.query.get(id).text)

            """
        let mail = "<p>{{ subject|safe }}</p>\n<p>{{ body|safe }}</p>\n"
        let note = "<div>{{ extra|safe }}</div>\n<div>{{ text|safe }}</div>\n<div>{{ footer|safe }}</div>\n"
        let root = try Self.tree(["app.py": app, "templates/mail.html": mail, "templates/note.html": note])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home))
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(
            try Self.findings(scan.stdout).filter { $0.hasPrefix("template.safe-filter@") } == [
                "template.safe-filter@templates/mail.html:2:11",
                "template.safe-filter@templates/note.html:2:13",
            ])
        let all = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: CLI.environment(home: home))
        #expect(try Self.findings(all.stdout).contains("template.safe-filter@templates/note.html:3:15"))
        #expect(all.stdout.contains("no view of the project is seen passing `footer` to this template"))
    }

    /// Issue 55: what a template binds itself is followed to the view's variable (`{% for note in
    /// notes %}`: `notes`); what does not come from the context (Flask's flashed messages, any
    /// call's result) is judged where it is; a template another one includes gets that one's
    /// context: a variable it does not hold is low confidence there too.
    @Test func outputsAreTracedToTheViewsVariables() throws {
        let app = """
            from flask import Flask, render_template

            app = Flask(__name__)


            @app.route("/notes")
            def notes():
                return render_template("notes.html", notes=Note.query.all())

            """
        let notes = """
            {% for note in notes %}<p>{{ note.text|safe }}</p>{% endfor %}
            {% for row in rows %}<p>{{ row.text|safe }}</p>{% endfor %}
            {% with messages = get_flashed_messages() %}{% for m in messages %}{{ m|safe }}{% endfor %}{% endwith %}
            {% include "partial.html" %}

            """
        let partial = "<p>{{ anything|safe }}</p>\n"
        let root = try Self.tree(["app.py": app, "templates/notes.html": notes, "templates/partial.html": partial])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home))
        #expect(
            try Self.findings(scan.stdout).filter { $0.hasPrefix("template.safe-filter@") } == [
                "template.safe-filter@templates/notes.html:1:39",
                "template.safe-filter@templates/notes.html:3:72",
            ])
    }

    /// Issue 55: a template other templates include, extend or import gets their contexts: what
    /// their views pass, what they bind (`with content=config.BANNER`), recursively. A base whose
    /// `|safe` variable the only view passing it passes as rendered markup is not reported; a
    /// banner given the operator's configuration is not; a partial given the request's text is, at
    /// medium confidence; one whose referrer passes what its file does not show keeps its
    /// confidence; a cycle of includes ends.
    @Test func aReferencedTemplateGetsItsReferrersContext() throws {
        let app = """
            from flask import Flask, render_template, request

            app = Flask(__name__)


            @app.route("/diff")
            def diff():
                offscreen = render_template("offscreen.html")
                return render_template("diff.html", offscreen=offscreen, q=request.args.get("q", ""))


            @app.route("/login")
            def login():
                return render_template("login.html")


            @app.route("/other")
            def other(**options):
                return render_template("other.html", **options)

            """
        let root = try Self.tree([
            "app.py": app,
            "templates/offscreen.html": "<p>options</p>\n",
            "templates/base.html": "{% include 'inc/banner.html' with content=config.BANNER_TOP %}\n<div>{{ offscreen|safe }}</div>\n",
            "templates/diff.html": "{% extends 'base.html' %}\n{% include 'inc/query.html' with text=q %}\n",
            "templates/login.html": "{% extends 'base.html' %}\n",
            "templates/inc/banner.html": "<div>{{ content|safe }}</div>\n",
            "templates/inc/query.html": "<p>{{ text|safe }}</p>\n",
            "templates/other.html": "{% include 'inc/open.html' %}\n",
            "templates/inc/open.html": "<p>{{ anything|safe }}</p>\n",
            "templates/inc/tree.html":
                "<li>{{ node.label|safe }}{% for node in node.children %}{% include 'inc/tree.html' %}{% endfor %}</li>\n",
            "templates/inc/forest.html": "{% for node in nodes %}{% include 'inc/tree.html' %}{% endfor %}\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: CLI.environment(home: home), timeout: 300)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(
            try Self.findings(scan.stdout).filter { $0.hasPrefix("template.safe-filter@") } == [
                "template.safe-filter@templates/inc/open.html:1:15",
                "template.safe-filter@templates/inc/query.html:1:11",
                "template.safe-filter@templates/inc/tree.html:1:18",
            ])
        let medium = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home))
        #expect(
            try Self.findings(medium.stdout).filter { $0.hasPrefix("template.safe-filter@") } == [
                "template.safe-filter@templates/inc/open.html:1:15",
                "template.safe-filter@templates/inc/query.html:1:11",
            ])
    }

    /// A context a helper of another module builds (`**row_context(...)`, `ctx = page_context()`)
    /// is what the view passes: its escaped values are safe, its request values are not, and a
    /// variable it does not give is given by no view.
    @Test func aContextBuiltByAProjectHelperIsWhatTheViewPasses() throws {
        let helpers = """
            from markupsafe import escape
            from flask import request


            def row_context(store):
                return {"badge": escape(store.badge), "query": request.args.get("q", "")}


            def page_context():
                context = {"title": "Rows"}
                context["note"] = request.args.get("note", "")
                return context

            """
        let app = """
            from flask import Flask, render_template
            from helpers import row_context, page_context
            from elsewhere import unknown_context

            app = Flask(__name__)


            @app.route("/rows")
            def rows():
                context = row_context(app.store)
                return render_template("rows.html", **context)


            @app.route("/page")
            def page():
                return render_template("page.html", **page_context())


            @app.route("/other")
            def other():
                return render_template("other.html", **unknown_context())

            """
        let root = try Self.tree([
            "helpers.py": helpers, "app.py": app,
            "templates/rows.html": "<p>{{ badge|safe }}</p>\n<p>{{ query|safe }}</p>\n<p>{{ missing|safe }}</p>\n",
            "templates/page.html": "<h1>{{ title|safe }}</h1>\n<p>{{ note|safe }}</p>\n",
            "templates/other.html": "<p>{{ anything|safe }}</p>\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let medium = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home),
            timeout: 300)
        #expect(medium.status == 0, "\(medium.stderr)")
        // `missing` no view gives: low confidence, shown only with --min-confidence low.
        #expect(
            try Self.findings(medium.stdout).filter { $0.hasPrefix("template.safe-filter@") } == [
                "template.safe-filter@templates/other.html:1:15",
                "template.safe-filter@templates/page.html:2:11",
                "template.safe-filter@templates/rows.html:2:12",
            ])
    }

    /// Names assigned from one another, in a cycle and fanning out (each from 40 copies of the
    /// next), cost what the file holds: each is judged once, and a cycle is not safe.
    @Test func renderContextsOfHostileNamesStayLinear() throws {
        var view = "from flask import render_template\n\n\ndef view():\n"
        for level in 0..<10 {
            let next = "a\((level + 1) % 10)"
            view += "    a\(level) = " + Array(repeating: next, count: 40).joined(separator: " + ") + "\n"
        }
        view += "    d = e\n    e = d\n    return render_template(\"t.html\", x=a0, **d)\n"
        let root = try Self.tree(["app.py": view, "templates/t.html": "<p>{{ x|safe }}</p>\n"])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home),
            timeout: 300)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(
            try Self.findings(scan.stdout).filter { $0.hasPrefix("template.safe-filter@") } == ["template.safe-filter@templates/t.html:1:8"]
        )
    }

    @Test func frameworkRulesNeedTheFramework() throws {
        // The same template beside Python code that is no Flask or Django app: the CSRF rule (which
        // knows those frameworks' tokens) stays quiet, the others do not.
        let root = try Self.tree(["tool.py": "import os\n", "templates/search.html": Self.template])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none"], environment: CLI.environment(home: home))
        let found = try Self.findings(scan.stdout)
        #expect(!found.contains { $0.hasPrefix("template.form-without-csrf-token") })
        // (No view renders it: its `|safe` outputs are low confidence, not shown by default.)
        #expect(found.contains { $0.hasPrefix("template.safe-filter-in-script@") } == false)
        let all = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low"],
            environment: CLI.environment(home: home))
        #expect(try Self.findings(all.stdout).contains { $0.hasPrefix("template.safe-filter@") })
    }
}
