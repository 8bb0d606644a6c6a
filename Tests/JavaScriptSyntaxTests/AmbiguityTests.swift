import Testing

@testable import JavaScriptSyntax

/// The places where the same characters mean different things: ASI, `/`, `<`, arrows, contextual words.
@Suite struct AmbiguityTests {
    @Test func asiJoinsLinesThatContinueAnExpression() throws {
        // No semicolon is inserted before `(`: the next line calls the previous one.
        let root = try program("a = b\n(c)\n")
        #expect(root.children.count == 1)
        #expect(
            root.children[0].sexpr
                == "(expressionStatement (assignment = (identifier a) (call (identifier b) _ (arguments (identifier c)))))")
    }

    @Test func asiSplitsWhereTheNextTokenCannotContinue() throws {
        let root = try program("let a = 1\nlet b = 2\nb\n++a")
        #expect(root.children.map(\.kind) == [.variableDeclaration, .variableDeclaration, .expressionStatement, .expressionStatement])
        // A line break before `++` makes it a prefix of the next line (a restricted production).
        #expect(root.children[3].sexpr == "(expressionStatement (prefixUpdate ++ (identifier a)))")
    }

    @Test func returnThrowBreakAndContinueAreRestricted() throws {
        let body = try program("function f() { return\n1 }").children[0].children[5]
        #expect(body.sexpr == "(block (return _) (expressionStatement (number 1)))")
        let loop = try program("a: while (x) { break\na; continue a }").children[0]
        #expect(loop.sexpr == "(labeled a (while (identifier x) (block (break) (expressionStatement (identifier a)) (continue a))))")
        #expect(rejection("throw\nnew Error()")?.code == .unexpectedToken)
    }

    @Test func asiNeedsALineBreakOrBrace() throws {
        #expect(rejection("let a = 1 let b = 2") != nil)
        #expect(try program("do x(); while (y) z()").children.count == 2)
        #expect(try program("{ a } b").children.count == 2)
    }

    @Test func slashIsDivisionAfterAnOperandAndRegexWhereAnOperandStarts() throws {
        #expect(try expression("a / b / c") == "(binary / (binary / (identifier a) (identifier b)) (identifier c))")
        #expect(
            try expression("x = /b+/g.test(s)")
                == "(assignment = (identifier x) (call (member . (regex b+) (identifier test)) _ (arguments (identifier s))))")
        #expect(try expression("(a) / 2") == "(binary / (parenthesized (identifier a)) (number 2))")
        #expect(try expression("f(/=/)") == "(call (identifier f) _ (arguments (regex =)))")
        // `/` in a class is not the end of the regex.
        let regex = try program("r = /[/]\\//i").children[0].children[0].children[1]
        #expect(regex.kind == .regex && regex.text == "[/]\\/" && regex.raw == "/[/]\\//i")
        #expect(try expression("a\n/b/g") == "(binary / (binary / (identifier a) (identifier b)) (identifier g))")
    }

    @Test func lessThanInTypeScriptIsGenericsOrComparisonAndInTSXAnElement() throws {
        #expect(try expression("f<T>(x)", "a.ts") == "(call (identifier f) (typeArguments (typeReference T _)) (arguments (identifier x)))")
        #expect(try expression("a < b > c", "a.ts") == "(binary > (binary < (identifier a) (identifier b)) (identifier c))")
        #expect(try expression("a < b", "a.ts") == "(binary < (identifier a) (identifier b))")
        #expect(try expression("<T>x", "a.ts") == "(typeAssertion (typeReference T _) (identifier x))")
        #expect(rejection("<T>x", "a.tsx") != nil)
        #expect(try expression("<T,>(x: T) => x", "a.tsx").hasPrefix("(arrowFunction (modifiers) (typeParameters (typeParameter T"))
        #expect(try expression("<T extends U>(x) => x", "a.tsx").hasPrefix("(arrowFunction (modifiers) (typeParameters"))
        #expect(try expression("<T>(x) => x", "a.ts").hasPrefix("(arrowFunction (modifiers) (typeParameters"))
        #expect(try expression("<div>x</div>", "a.tsx") == "(jsxElement div (jsxName div) _ (jsxAttributes) (jsxChildren (jsxText \"x\")))")
        #expect(rejection("<div>x</div>", "a.ts") != nil)
    }

    @Test func parenthesesAreAnArrowsParametersOnlyBeforeTheArrow() throws {
        #expect(try expression("(a, b)") == "(parenthesized (sequence (identifier a) (identifier b)))")
        let arrow = try expression("(a, b = 1, ...c) => a")
        #expect(arrow.hasPrefix("(arrowFunction (modifiers) _ (parameters (parameter (decorators) (modifiers) (identifier a) _ _)"))
        #expect(arrow.contains("(restElement (identifier c))"))
        #expect(
            try expression("({a, b: [c]} = d)")
                == "(parenthesized (assignment = (objectPattern (objectProperty shorthand (identifier a) (identifier a)) (objectProperty (identifier b) (arrayPattern (identifier c)))) (identifier d)))"
        )
        #expect(rejection("(a, b)\n=> a") != nil)
        #expect(
            try expression("c ? (a) : (b) => d", "a.ts")
                == "(conditional (identifier c) (parenthesized (identifier a)) (arrowFunction (modifiers) _ (parameters (parameter (decorators) (modifiers) (identifier b) _ _)) _ (identifier d)))"
        )
    }

    @Test func asyncIsAnIdentifierUnlessAFunctionFollows() throws {
        #expect(try expression("async(1)") == "(call (identifier async) _ (arguments (number 1)))")
        #expect(try expression("async (x) => x").hasPrefix("(arrowFunction (modifiers (modifier async))"))
        #expect(try expression("async x => x").hasPrefix("(arrowFunction (modifiers (modifier async))"))
        #expect(
            try expression("async => async").hasPrefix(
                "(arrowFunction (modifiers) _ (parameters (parameter (decorators) (modifiers) (identifier async)"))
        let root = try program("async\nfunction f() {}")
        #expect(root.children.map(\.kind) == [.expressionStatement, .functionDeclaration])
    }

    @Test func letIsAnIdentifierInSloppyCodeUnlessABindingFollows() throws {
        #expect(try statement("var let = 1") == "(variableDeclaration var (variableDeclarator (identifier let) _ (number 1)))")
        #expect(try expression("let + 1") == "(binary + (identifier let) (number 1))")
        #expect(
            try statement("let [a] = b") == "(variableDeclaration let (variableDeclarator (arrayPattern (identifier a)) _ (identifier b)))")
    }

    @Test func contextualWordsAreIdentifiersElsewhere() throws {
        let source = "var of = 1, get = 2, set = 3, type = 4, declare = 5, from = 6, as = 7; for (of of [of]) {}"
        let root = try program(source, "a.ts")
        #expect(
            nodes(root, .variableDeclarator).compactMap { $0.children[0].text } == ["of", "get", "set", "type", "declare", "from", "as"])
        #expect(root.children[1].kind == .forOf)
        #expect(try expression("type = 1", "a.ts") == "(assignment = (identifier type) (number 1))")
        #expect(try expression("declare(x)", "a.ts") == "(call (identifier declare) _ (arguments (identifier x)))")
        #expect(
            try expression("({ get, set, async, static: 1 })")
                == "(parenthesized (object (objectProperty shorthand (identifier get) (identifier get)) (objectProperty shorthand (identifier set) (identifier set)) (objectProperty shorthand (identifier async) (identifier async)) (objectProperty (identifier static) (number 1))))"
        )
        // `type` names an alias only with the name on its line.
        #expect(try program("type\nFoo = 1", "a.ts").children.map(\.kind) == [.expressionStatement, .expressionStatement])
    }

    @Test func awaitIsAnOperatorAtTheTopLevelAndInAsyncFunctionsOnly() throws {
        #expect(try expression("await fetch(u)") == "(await (call (identifier fetch) _ (arguments (identifier u))))")
        let inner = try program("function f() { return await }").children[0].children[5]
        #expect(inner.sexpr == "(block (return (identifier await)))")
    }
}
