import Foundation
import TemplateSyntax
import Testing

@testable import SAST

/// A template's context comes from the views that render it and from the templates that include,
/// extend or import it (``TemplateContexts``).
@Suite struct TemplateContextsTests {
    /// The contexts of `templates` (path: text), rendered by `calls`, by path.
    static func contexts(_ templates: [(String, String)], calls: [RenderedContext]) -> [String: TemplateContext] {
        let outlines = templates.map { TemplateOutline(TemplateDocument(bytes: Array($0.1.utf8))) }
        let computed = TemplateContexts(templates: templates.map(\.0), outlines: outlines, calls: calls).contexts
        return Dictionary(uniqueKeysWithValues: zip(templates.map(\.0), computed))
    }

    static func call(_ template: String, _ variables: [String: Bool], unknown: Bool = false) -> RenderedContext {
        var call = RenderedContext(template: template, variables: variables)
        call.passesUnknown = unknown
        return call
    }

    /// A variable is safe when some call passes it and every call passing it passes safe markup;
    /// a call not passing it leaves it undefined there; a call of unknown content not naming it
    /// may pass it unsafely.
    @Test func safeVariablesJoinTheCallsThatPassThem() {
        let known = TemplateContext(calls: [Self.call("t.html", ["a": true, "b": true]), Self.call("t.html", ["a": true, "b": false])])
        #expect(known.safe == ["a"])
        #expect(known.passed == ["a", "b"])
        let open = TemplateContext(calls: [Self.call("t.html", ["a": true]), Self.call("t.html", ["b": true], unknown: true)])
        #expect(open.safe == ["b"])
        #expect(open.passed == nil)
        #expect(TemplateContext(calls: []).passed == [])
    }

    /// An extended base template gets its children's contexts: a variable the only view passing it
    /// passes as rendered markup is safe there, and a child no view renders adds nothing.
    @Test func anExtendedBaseGetsItsChildrensContext() {
        let contexts = Self.contexts(
            [
                ("templates/base.html", "<div>{{ offscreen|safe }}</div>{{ title|safe }}"),
                ("templates/diff.html", "{% extends 'base.html' %}"),
                ("templates/login.html", "{% extends \"base.html\" %}"),
            ],
            calls: [Self.call("diff.html", ["offscreen": true, "title": false])])
        let base = contexts["templates/base.html"]
        #expect(base?.passed == ["offscreen", "title"])
        #expect(base?.safe == ["offscreen"])
    }

    /// `{% include "x" with a=expr %}`: the included template's `a` holds what `expr` holds in the
    /// referrer: the operator's configuration is safe, a value from the request is not (and is
    /// passed: its output keeps its confidence), and `only` hands nothing else.
    @Test func anIncludesBindingsHoldWhatTheirExpressionsHold() {
        let contexts = Self.contexts(
            [
                (
                    "t/layout.html",
                    "{% include 'inc/banner.html' with content=config.BANNER_TOP %}{% include 'inc/q.html' with q=query only %}"
                ),
                ("t/inc/banner.html", "{{ content|safe }}"),
                ("t/inc/q.html", "{{ q|safe }}"),
            ],
            calls: [Self.call("layout.html", ["query": false, "other": true])])
        #expect(contexts["t/inc/banner.html"]?.isSafe("content") == true)
        #expect(contexts["t/inc/banner.html"]?.isSafe("query") == false)
        #expect(contexts["t/inc/q.html"]?.passed == ["q"])
        #expect(contexts["t/inc/q.html"]?.safe == [])
    }

    /// A referrer whose context the code does not show (`**options`) leaves the referenced
    /// template's context unknown; what its tag binds to the configuration stays safe.
    @Test func aReferrerOfUnknownContextLeavesItUnknown() {
        let contexts = Self.contexts(
            [
                ("t/page.html", "{% include 'part.html' with banner=settings.BANNER %}"),
                ("t/part.html", "{{ x|safe }}{{ banner|safe }}"),
            ],
            calls: [Self.call("page.html", [:], unknown: true)])
        #expect(contexts["t/part.html"]?.passed == nil)
        #expect(contexts["t/part.html"]?.safe == ["banner"])
    }

    /// What the referrer binds itself (a loop around the include) is handed on, traced to the
    /// view's variable; an imported template's macros get their parameters from callers not
    /// followed, and nothing of the importer's context.
    @Test func aReferrersLoopsAndAnImportsMacros() {
        let contexts = Self.contexts(
            [
                ("t/list.html", "{% import 'macros.html' as m %}{% for row in rows %}{% include 'row.html' %}{% endfor %}"),
                ("t/row.html", "{{ row.html_body|safe }}"),
                ("t/macros.html", "{% macro field(value, label=None) %}{{ value|safe }}{% endmacro %}"),
            ],
            calls: [Self.call("list.html", ["rows": true, "user_text": false])])
        #expect(contexts["t/row.html"]?.safe.contains("row") == true)
        #expect(contexts["t/macros.html"]?.passed == ["value", "label"])
        #expect(contexts["t/macros.html"]?.safe == [])
    }

    /// A cycle of references (a template including itself, two including each other) settles:
    /// each gets what the view passes the first.
    @Test func aCycleOfIncludesSettles() {
        let contexts = Self.contexts(
            [
                ("t/a.html", "{% include 'b.html' %}{% include 'a.html' with depth=next %}"),
                ("t/b.html", "{% include 'a.html' %}{{ comment|safe }}"),
                ("t/c.html", "{% include 'c.html' %}"),
            ],
            calls: [Self.call("a.html", ["comment": false, "next": true])])
        #expect(contexts["t/a.html"]?.passed == ["comment", "next", "depth"])
        #expect(contexts["t/b.html"]?.passed == ["comment", "next", "depth"])
        #expect(contexts["t/b.html"]?.safe == ["next", "depth"])
        #expect(contexts["t/c.html"]?.passed == [])
    }

    /// Components are listed before those their edges lead to; a long chain needs no recursion.
    @Test func componentsComeInTopologicalOrder() {
        let components = TemplateContexts.components([[1], [2], [1], []])
        let first = components.firstIndex(of: [0])
        let cycle = components.firstIndex { Set($0) == [1, 2] }
        #expect(components.count == 3)
        #expect((first ?? .max) < (cycle ?? -1))
        let chain = TemplateContexts.components((0..<100_000).map { $0 + 1 < 100_000 ? [$0 + 1] : [] })
        #expect(chain.first == [0])
        #expect(chain.count == 100_000)
    }

    /// The words of a reference tag, and what each spelling hands the referenced template.
    @Test func referencesAreRead() {
        func read(_ tag: String) -> TemplateReference? { TemplateReference.read(TemplateReference.words(of: tag)) }
        #expect(
            read("include 'x.html' with title=\"a b\" n=3 only")
                == TemplateReference(name: "x.html", bindings: ["title": "\"a b\"", "n": "3"], isolated: true))
        #expect(read("include \"x.html\" without context")?.isolated == true)
        #expect(read("from 'forms.html' import field with context")?.isolated == false)
        #expect(read("import 'forms.html' as forms")?.isolated == true)
        #expect(read("extends base") == nil)
    }

    @Test("a render call's helper contexts: joined by name, followed a few levels, unknown past the bounds")
    func helperContextsResolveWithinBounds() {
        var call = RenderedContext(template: "rows.html", variables: ["title": true])
        call.builders = ["row_context"]
        let builders = [
            ContextBuilder(name: "row_context", variables: ["badge": true, "query": false], builders: ["base_context"]),
            ContextBuilder(name: "row_context", variables: ["badge": false]),
            ContextBuilder(name: "base_context", variables: ["site": true]),
        ]
        let resolved = ContextBuilder.resolve([call], builders: builders)
        #expect(resolved[0].variables == ["title": true, "badge": false, "query": false, "site": true])
        #expect(!resolved[0].passesUnknown && resolved[0].builders.isEmpty)
        // A name the project does not define as a context builder: unknown.
        var missing = call
        missing.builders = ["elsewhere"]
        #expect(ContextBuilder.resolve([missing], builders: builders)[0].passesUnknown)
        // Thousands of keys under one name: unknown, not a merge per call.
        let huge = (0..<(ContextBuilder.maxKeys + 1)).map { ContextBuilder(name: "row_context", variables: ["k\($0)": true]) }
        let bounded = ContextBuilder.resolve(Array(repeating: call, count: 1_000), builders: huge)
        #expect(bounded.allSatisfy { $0.passesUnknown && $0.variables == ["title": true] })
        // A chain deeper than followed, and a cycle: unknown, and it ends.
        let chain = (0...ContextBuilder.maxDepth).map {
            ContextBuilder(name: $0 == 0 ? "row_context" : "c\($0)", variables: [:], builders: ["c\($0 + 1)"])
        }
        #expect(ContextBuilder.resolve([call], builders: chain)[0].passesUnknown)
        let cycle = [ContextBuilder(name: "row_context", variables: ["a": true], builders: ["row_context"])]
        #expect(!ContextBuilder.resolve([call], builders: cycle)[0].passesUnknown)
    }

    /// N templates sharing one name and including it (`d1/partial.html` ... each holding
    /// `{% include "partial.html" %}`): each reference names every one of them, and the contexts
    /// are joined through one group, not N² edges (issue 76 H14); what the view passes still
    /// reaches every one of them.
    @Test func templatesSharingOneNameCostLinearWork() {
        var work: [Int] = []
        for count in [100, 400] {
            let templates = (0..<count).map {
                ("d\($0)/partial.html", "{{ name|safe }}{% if more %}{% include \"partial.html\" %}{% endif %}")
            }
            let outlines = templates.map { TemplateOutline(TemplateDocument(bytes: Array($0.1.utf8))) }
            let computed = TemplateContexts(
                templates: templates.map(\.0), outlines: outlines, calls: [Self.call("d0/partial.html", ["name": false])])
            for context in computed.contexts {
                #expect(context.passed == ["name"])
                #expect(context.safe.isEmpty)
            }
            work.append(computed.joins)
            #expect(computed.joins <= 8 * count)
        }
        #expect(work[1] <= 5 * work[0])
    }
}
