import Testing

@testable import JavaScriptSyntax

/// JSX in .js, .jsx and .tsx: elements, fragments, attributes, containers, entities, names.
@Suite struct JSXTests {
    @Test func elementsAttributesAndChildren() throws {
        let element = try expression(
            #"<div className="a" {...props} data-id={id} disabled xlink:href='u'>Hi &amp; bye {name}{/* c */}<br/></div>"#)
        #expect(
            element
                == "(jsxElement div (jsxName div) _ (jsxAttributes (jsxAttribute className (string \"a\")) (jsxSpreadAttribute (identifier props)) (jsxAttribute data-id (jsxExpressionContainer (identifier id))) (jsxAttribute disabled _) (jsxAttribute xlink:href (string \"u\"))) (jsxChildren (jsxText \"Hi & bye \") (jsxExpressionContainer (identifier name)) (jsxExpressionContainer _) (jsxElement br (jsxName br) _ (jsxAttributes) (jsxChildren))))"
        )
    }

    @Test func fragmentsMemberAndNamespacedNames() throws {
        #expect(
            try expression("<><Foo.Bar.Baz x={1} /><svg:rect /></>")
                == "(jsxElement _ _ (jsxAttributes) (jsxChildren (jsxElement Foo.Bar.Baz (jsxName Foo.Bar.Baz) _ (jsxAttributes (jsxAttribute x (jsxExpressionContainer (number 1)))) (jsxChildren)) (jsxElement svg:rect (jsxName svg:rect) _ (jsxAttributes) (jsxChildren))))"
        )
    }

    @Test func textKeepsRawAndDecodesEntities() throws {
        let text = nodes(try program("<p>&lt;a&gt; &#65;&#x42; &unknown; a &amp; b & c</p>"), .jsxText)[0]
        #expect(text.text == "<a> AB &unknown; a & b & c")
        #expect(text.raw == "&lt;a&gt; &#65;&#x42; &unknown; a &amp; b & c")
    }

    @Test func attributeStringsHaveNoEscapesAndMaySpanLines() throws {
        let value = nodes(try program("<a title=\"x\\n\ny\" />"), .jsxAttribute)[0].children[0]
        #expect(value.text == "x\\n\ny")
    }

    @Test func nestedExpressionsAndSpreadChildren() throws {
        let source = "const App = () => <ul>{items.map(i => <li key={i.id}>{i.name}</li>)}{...rest}</ul>"
        let root = try program(source, "App.jsx")
        #expect(nodes(root, .jsxElement).map(\.text) == ["ul", "li"])
        #expect(nodes(root, .jsxSpreadChild).count == 1)
        #expect(nodes(root, .arrowFunction).count == 2)
    }

    @Test func jsxIsReadInTSXWithTypeArguments() throws {
        let root = try program("const a = <Select<Option> value={v as string} onChange={(e: Event) => set(e)} />", "a.tsx")
        let element = nodes(root, .jsxElement)[0]
        #expect(element.children[1].sexpr == "(typeArguments (typeReference Option _))")
        #expect(nodes(root, .asExpression).count == 1)
    }

    @Test func mismatchedOrUnterminatedElementsAreErrors() {
        #expect(rejection("<a></b>")?.code == .invalidJSX)
        #expect(rejection("<a>text")?.code == .invalidJSX)
        #expect(rejection("<a b=>")?.code == .invalidJSX)
        #expect(rejection("<a>x > y</a>")?.code == .invalidJSX)
        #expect(rejection("<a>x } y</a>")?.code == .invalidJSX)
        #expect(rejection("<a>{x</a>")?.code != nil)
    }
}
