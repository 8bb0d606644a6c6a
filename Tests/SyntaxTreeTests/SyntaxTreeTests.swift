import Testing

import SyntaxTree

/// The tree no parser owns: its kinds, its views over hand-built nodes, its large-stack runner.
@Suite("SyntaxTree")
struct SyntaxTreeTests {
    static let here = SourceRange(start: SourceLocation(line: 1, column: 0, offset: 0), end: SourceLocation(line: 1, column: 1, offset: 1))

    static func node(_ kind: SyntaxKind, _ text: String? = nil, _ children: [SyntaxNode] = []) -> SyntaxNode {
        SyntaxNode(kind, text: text, children: children, range: here)
    }

    @Test("the kinds fit in the bit sets the engine keeps them in, and each ordinal is its case's position")
    func ordinals() {
        #expect(SyntaxKind.allCases.count < 128)
        for (position, kind) in SyntaxKind.allCases.enumerated() { #expect(kind.ordinal == position) }
    }

    @Test("the concept kinds of other languages are statements where they stand among statements")
    func conceptStatements() {
        #expect(SyntaxKind.switch.isStatement && SyntaxKind.blockScope.isStatement)
        #expect(SyntaxKind.importWithBindings.isStatement && SyntaxKind.method.isStatement)
        #expect(!SyntaxKind.new.isStatement && !SyntaxKind.arrowFunction.isStatement && !SyntaxKind.other.isStatement)
        #expect(SyntaxKind.other.rawValue == "other")
    }

    @Test("a call's view names its callee, arguments and keywords; `new` reads the same")
    func callView() throws {
        let call = Self.node(
            .call, nil,
            [
                Self.node(.name, "run"), Self.node(.name, "cmd"),
                Self.node(.keyword, "shell", [Self.node(.true)]), Self.node(.starred, nil, [Self.node(.name, "rest")]),
            ])
        let view = try #require(call.call)
        #expect(view.callee.text == "run")
        #expect(view.arguments.count == 3)
        #expect(view.positionalArguments.map(\.text) == ["cmd"])
        #expect(view.keyword("shell")?.kind == .true)
        #expect(view.keyword("cwd") == nil)
        #expect(Self.node(.new, nil, [Self.node(.name, "C")]).call?.callee.text == "C")
        #expect(Self.node(.name, "f").call == nil)
        #expect(Self.node(.call).call == nil)
    }

    @Test("a function's view reads every function kind's one layout")
    func functionView() throws {
        let parameters = Self.node(
            .parameters, nil,
            [Self.node(.parameter, "this", [Self.node(.empty), Self.node(.empty)]), Self.node(.varArgs, "rest", [Self.node(.empty)])])
        let body = Self.node(.block, nil, [Self.node(.return, nil, [Self.node(.name, "rest")])])
        for kind in [SyntaxKind.functionDef, .asyncFunctionDef, .arrowFunction, .method, .constructor] {
            let function = Self.node(
                kind, "handler", [Self.node(.decorators), Self.node(.typeParams), parameters, Self.node(.empty), body])
            let view = try #require(function.functionDefinition)
            #expect(view.name == "handler")
            #expect(view.parameterNames == ["this", "rest"])
            #expect(view.returns == nil)
            #expect(view.body.children.first?.kind == .return)
            #expect(view.isAsync == (kind == .asyncFunctionDef))
        }
        #expect(Self.node(.functionDef, "broken").functionDefinition == nil)
        #expect(Self.node(.lambda, nil, [parameters, Self.node(.name, "x")]).functionDefinition == nil)
    }

    @Test("an assignment's view gives every target and the value of each assignment form")
    func assignmentView() throws {
        let chained = Self.node(.assign, nil, [Self.node(.name, "a"), Self.node(.name, "b"), Self.node(.integer, "1")])
        let view = try #require(chained.assignment)
        #expect(view.targets.map(\.text) == ["a", "b"])
        #expect(view.value?.text == "1")
        #expect(view.augmentedOperator == nil)
        let augmented = try #require(Self.node(.augAssign, "+=", [Self.node(.name, "a"), Self.node(.name, "x")]).assignment)
        #expect(augmented.targets.map(\.text) == ["a"])
        #expect(augmented.value?.text == "x")
        #expect(augmented.augmentedOperator == "+=")
        let annotated = try #require(
            Self.node(.annAssign, nil, [Self.node(.name, "a"), Self.node(.name, "int"), Self.node(.empty)]).assignment)
        #expect(annotated.targets.map(\.text) == ["a"])
        #expect(annotated.value == nil)
        #expect(Self.node(.exprStmt, nil, [Self.node(.name, "a")]).assignment == nil)
    }

    @Test("a pattern's text is dedented from its first line, blank lines before it dropped")
    func dedent() {
        let text = String(decoding: PatternText.dedent("\n\n    f($X)\n      g()\n  h()"), as: UTF8.self)
        #expect(text == "f($X)\n  g()\n  h()\n")
        #expect(PatternText.dedent("   \n  ").isEmpty)
    }
}
