import Foundation
import TemplateSyntax
import Testing

/// The template tokenizer: delimiters, raw blocks, the HTML context of each output, forms and
/// scripts, and hostile input (it reads anything, within bounds, and says when a bound stopped it).
@Suite struct TemplateDocumentTests {
    static func document(_ text: String) -> TemplateDocument { TemplateDocument(bytes: Array(text.utf8)) }

    /// Each output's expression and context.
    static func outputs(_ text: String) -> [(String, OutputContext)] {
        let document = document(text)
        return document.outputs.map { (document.text($0.expression), $0.context) }
    }

    @Test func outputsTakeTheContextTheyLandIn() {
        let text = """
            <p title="{{ a }}" data-x={{ b }} href="{{ c }}" onclick="f('{{ d }}')" style="{{ e }}" {{ f }}>{{ g }}</p>
            <script>var s = "{{ h }}"; {{ i }}; // it's {{ j }}
            var t = `x ${y} {{ k }}`;</script><style>p { color: {{ l }} }</style>
            <!-- {{ m }} --><textarea>{{ n }}</textarea><a href="/u/{{ o }}">
            """
        let found = Self.outputs(text)
        #expect(found.map(\.0) == ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o"])
        #expect(
            found.map(\.1) == [
                .attribute, .unquotedAttribute, .urlAttribute, .eventAttribute, .style, .tag, .text, .scriptString, .script,
                .script, .scriptString, .style, .comment, .text, .attribute,
            ])
    }

    @Test func whitespaceControlAndCommentsAndRawBlocks() {
        let document = Self.document(
            "{%- if x -%}{{- v -}}{%+ endif %}{# note #}{% raw %}{{ literal }}{% endraw %}{% verbatim %}{% x %}{% endverbatim %}"
        )
        #expect(document.outputs.map { document.text($0.expression) } == ["v"])
        #expect(document.tags.map(\.name) == ["if", "endif", "raw", "endraw", "verbatim", "endverbatim"])
        #expect(document.tokens.filter { $0.kind == .comment }.map { document.text($0.inner) } == ["note"])
        #expect(document.problems.isEmpty)
    }

    @Test func tornadosRawOutputIsNoBlock() {
        let document = Self.document("{% raw query %}<p>{{ after }}</p>")
        #expect(document.outputs.count == 1 && document.problems.isEmpty)
    }

    @Test func autoescapeBlocksMarkTheirOutputs() {
        let document = Self.document(
            "{{ a }}{% autoescape off %}{{ b }}{% autoescape on %}{{ c }}{% endautoescape %}{{ d }}{% endautoescape %}{{ e }}")
        #expect(document.outputs.map(\.autoescaped) == [true, false, true, false, true])
    }

    @Test func formsAndScriptsKeepTheirBodies() throws {
        let document = Self.document(
            "<FORM method=post action=\"/x\"><input type=password></FORM><form><script src=a.js></script><script>go()</script>")
        let forms = document.elements.filter { $0.name == "form" }
        #expect(forms.count == 2)
        #expect(document.text(try #require(forms[0].body)) == "<input type=password>")
        #expect(forms[0].attribute("method").flatMap(\.value).map(document.text) == "post")
        #expect(forms[1].body?.upperBound == document.bytes.count, "an unclosed form runs to the end")
        #expect(document.elements.filter { $0.name == "script" }.compactMap(\.body).map(document.text) == ["", "go()"])
    }

    @Test func positionsCountLinesAndCodePoints() {
        let document = Self.document("<p>é</p>\n  <b>ü {{ x }}</b>")
        let position = document.position(of: document.outputs[0].range.lowerBound)
        #expect(position.line == 2 && position.column == 8)
        #expect(document.line(2) == "  <b>ü {{ x }}</b>")
    }

    @Test func unterminatedDelimitersAreTextAndReported() {
        let document = Self.document("<p>{{ open <b>{% tag {# note {{ ok }}</p><div class=\"x")
        #expect(document.outputs.map { document.text($0.expression) } == ["open <b>{% tag {# note {{ ok"])
        let unclosed = Self.document("a {% raw %} {{ x }} and more {% if %}")
        #expect(unclosed.outputs.isEmpty)
        #expect(unclosed.problems.map(\.message) == ["no {% endraw %} before the end of the file"])
        let broken = Self.document("{{ a {{ b {% c")
        #expect(broken.problems.map(\.message) == ["unterminated {{", "unterminated {%"])
        #expect(Self.document("<div class=\"x").problems.map(\.message) == ["unterminated <div> tag"])
    }

    @Test func anyBytesAreReadWithinBounds() {
        // NUL bytes, invalid UTF-8, every byte value, stray delimiters: a document, never a crash.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let alphabet: [UInt8] = Array("{}%#<>/=\"'`-!\\ scriptformaxX\n".utf8) + [0, 0xFF, 0xC3, 0x80]
            let bytes = (0..<Int.random(in: 0..<400, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let document = TemplateDocument(bytes: bytes)
            let covered = document.tokens.reduce(0) { $0 + $1.range.count }
            #expect(covered == bytes.count)
            for output in document.outputs { #expect(output.range.upperBound <= bytes.count) }
        }
        let nul = TemplateDocument(bytes: Array("<p>\0{{ x\0 }}</p>".utf8))
        #expect(nul.outputs.count == 1)
    }

    @Test func hugeInputHitsTheBoundAndSaysSo() {
        // Many outputs and elements: the first maxConstructs are read, the rest is reported.
        let outputs = TemplateDocument(bytes: Array(String(repeating: "{{ x }}", count: 3_000).utf8), maxConstructs: 1_000)
        #expect(outputs.outputs.count == 1_000)
        #expect(outputs.problems.map(\.message) == ["more than 1000 template tokens; the rest is not analysed"])
        #expect(outputs.problems.allSatisfy { $0.isBound })
        let elements = TemplateDocument(bytes: Array(String(repeating: "<i></i>", count: 3_000).utf8), maxConstructs: 1_000)
        #expect(elements.elements.count == 1_000)
        #expect(elements.problems.map(\.message) == ["more than 1000 HTML elements; the rest is not analysed"])
        // A large file of unterminated openings is linear, not quadratic.
        let openings = TemplateDocument(bytes: Array(String(repeating: "{{ {% {# ", count: 200_000).utf8))
        #expect(openings.outputs.isEmpty && openings.problems.count == 3)
    }
}
