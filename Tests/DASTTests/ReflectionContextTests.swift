import Testing

@testable import DAST

/// Where a reflected marker sits, and whether an injected payload became live markup or code.
@Suite struct ReflectionContextTests {
    private static let marker = "snt1x9"

    @Test(
        "each context is recognised",
        arguments: [
            ("<p>snt1x9</p>", .text), ("a < snt1x9 > b", .text),
            (#"<input value="snt1x9">"#, .attributeValue(name: "value", quote: "\"")),
            ("<input VALUE='a snt1x9'>", .attributeValue(name: "value", quote: "'")),
            ("<input value=snt1x9>", .attributeValue(name: "value", quote: nil)),
            (#"<a title="x>snt1x9">"#, .attributeValue(name: "title", quote: "\"")),
            (#"<a href="snt1x9">"#, .urlAttribute(name: "href", quote: "\"")),
            ("<form action=/x?snt1x9>", .urlAttribute(name: "action", quote: nil)),
            ("<div snt1x9>", .attributeName), ("<div a=1 data-snt1x9=2>", .attributeName), (#"<div a="1"snt1x9>"#, .attributeName),
            ("<snt1x9>", .tagName), ("<divsnt1x9 a=1>", .tagName), ("</snt1x9>", .tagName),
            ("<!-- snt1x9 -->", .comment), ("<!DOCTYPE snt1x9>", .comment), ("<?xml snt1x9?>", .comment),
            ("<!-- unterminated snt1x9", .comment),
            (#"<script>var a = "snt1x9";</script>"#, .script(quote: "\"")),
            ("<script>var a = 'it\\'s snt1x9';</script>", .script(quote: "'")),
            ("<script>var a = `x ${b} snt1x9`;</script>", .script(quote: "`")),
            ("<script>var a = `x ${ {a: snt1x9} }`;</script>", .script(quote: nil)),
            ("<script>var a = snt1x9;</script>", .script(quote: nil)),
            ("<script>var a = \"x\"; b(snt1x9)</script>", .script(quote: nil)),
            ("<script>x = a / b; y = snt1x9 / 2</script>", .script(quote: nil)),
            ("<script>x = /ab[/]snt1x9/.test(s)</script>", .script(quote: "/")),
            ("<script>// note\nvar x = 'a' // snt1x9\n</script>", .scriptComment),
            ("<script>/* a \n snt1x9 */</script>", .scriptComment),
            ("<script>var s = 'unterminated\nsnt1x9'</script>", .script(quote: nil)),
            ("<SCRIPT type=text/javascript>snt1x9</SCRIPT >", .script(quote: nil)),
            ("<style>body { color: snt1x9 }</style>", .style),
            ("<textarea>snt1x9</textarea>", .rcdata(element: "textarea")),
            ("<title><b>snt1x9</b></title>", .rcdata(element: "title")),
            ("<noscript><p>snt1x9</p></noscript>", .rcdata(element: "noscript")),
            ("<xmp>snt1x9</xmp>", .rcdata(element: "xmp")),
        ] as [(String, ReflectionContext)])
    func context(html: String, expected: ReflectionContext) {
        #expect(ReflectionContext.contexts(of: Self.marker, in: html) == [expected])
    }

    @Test func occurrencesComeInOrderWithPositions() {
        let html = #"<p>snt1x9</p><a href=" snt1x9" title="snt1x9"><script>'snt1x9'; snt1x9</script>"#
        let found = ReflectionContext.occurrences(of: Self.marker, in: html)
        #expect(
            found.map(\.context) == [
                .text, .urlAttribute(name: "href", quote: "\""), .attributeValue(name: "title", quote: "\""),
                .script(quote: "'"), .script(quote: nil),
            ])
        #expect(found.map(\.offset) == [3, 23, 38, 55, 64])
        #expect(found[1].atValueStart && found[2].atValueStart)
        #expect(!ReflectionContext.occurrences(of: Self.marker, in: #"<a href="/x?q=snt1x9">"#)[0].atValueStart)
    }

    @Test func hostileInputsStayBounded() {
        let attributes = "<div " + String(repeating: "a=1 ", count: 100_000) + "z=\"snt1x9\">"
        #expect(ReflectionContext.contexts(of: Self.marker, in: attributes) == [.attributeValue(name: "z", quote: "\"")])
        let many = String(repeating: "snt1x9<", count: 50_000)
        #expect(ReflectionContext.contexts(of: Self.marker, in: many, limit: 10).count == 10)
        #expect(ReflectionContext.contexts(of: Self.marker, in: String(repeating: "snt1x", count: 200_000)).isEmpty)
        #expect(ReflectionContext.contexts(of: "", in: "<p>").isEmpty)
    }

    @Test(
        "payloads that landed executable",
        arguments: [
            ("<p><snt1x9-tag></p>", [.element(name: "snt1x9-tag")]),
            ("<p><SNT1X9></p>", [.element(name: "snt1x9")]),
            (#"<input value=""><img src=x onerror=alert(snt1x9)>">"#, [.eventHandler(attribute: "onerror")]),
            (#"<input value="" autofocus onfocus="snt1x9" x="">"#, [.eventHandler(attribute: "onfocus")]),
            ("<div onsnt1x9=1>", [.eventHandler(attribute: "onsnt1x9")]),
            (#"<a href="javascript:snt1x9()">"#, [.javascriptURL(attribute: "href")]),
            (#"<a href=" JaVa&Tab;script&colon;snt1x9()">"#, [.javascriptURL(attribute: "href")]),
            (#"<iframe src="java\#nscript:snt1x9">"#, [.javascriptURL(attribute: "src")]),
            ("<script>var a = ''; snt1x9(); ''</script>", [.scriptCode]),
            ("<script></script><snt1x9>\"</script>", [.element(name: "snt1x9")]),
            ("<script type=module>snt1x9()</script>", [.scriptCode]),
        ] as [(String, [ExecutableReflection])])
    func executable(html: String, expected: [ExecutableReflection]) {
        #expect(ReflectionContext.executableReflections(of: Self.marker, in: html) == expected)
        #expect(ReflectionContext.isExecutable(payloadMarker: Self.marker, in: html))
    }

    @Test(
        "payloads that stayed inert",
        arguments: [
            "<p>&lt;snt1x9&gt;</p>", #"<a title="<snt1x9>">"#, "<!-- <snt1x9> -->", "<textarea><snt1x9></textarea>",
            "<title><snt1x9></title>", "<noscript><snt1x9></noscript>", "<p title='onerror=snt1x9'>",
            #"<a href="/x?javascript:snt1x9">"#, "<script>var a = 'snt1x9';</script>", "<script>// snt1x9\n</script>",
            "<script type=application/json>snt1x9</script>", "<style><snt1x9></style>", "<snt1x9", "<p>snt1x9</p>",
            #"<img src="x" data-x="onerror=snt1x9">"#,
        ])
    func inert(html: String) {
        #expect(ReflectionContext.executableReflections(of: Self.marker, in: html).isEmpty)
        #expect(!ReflectionContext.isExecutable(payloadMarker: Self.marker, in: html))
    }
}
