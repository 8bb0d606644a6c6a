import SourcePositions
import Testing

@testable import Findings

/// `{# sentinel: ignore[ID] reason #}` in a Jinja2/Django template works like `# sentinel: ignore`:
/// on the finding's line, or alone on the line above; the closing `#}` is not part of the reason.
@Suite struct TemplateSuppressionTests {
    @Test func templateCommentsSuppressLikeHashComments() {
        let source = """
            {# sentinel: ignore[template.safe-filter] the CMS sanitises this HTML #}
            <p>{{ page.body|safe }}</p>
            <p>{{ banner|safe }}</p>  {# sentinel: ignore[template.safe-filter] our own markup #}
            <p>{{ q|safe }}</p>

            """
        let findings = [2, 3, 4].map { line in
            Finding(
                ruleId: "template.safe-filter", severity: .medium, message: "m",
                location: Location(file: "t.html", startLine: line, startColumn: 1))
        }
        let lines = LineIndex(source)
        let result = Suppressions.apply(to: findings, sources: { $0 == "t.html" ? lines : nil })
        #expect(result.suppressed.map(\.location.startLine) == [2, 3])
        #expect(result.kept.map(\.location.startLine) == [4])
        #expect(
            result.suppressed.map { $0.facts.properties["suppressionReason"] } == [
                "the CMS sanitises this HTML", "our own markup",
            ])
    }
}
