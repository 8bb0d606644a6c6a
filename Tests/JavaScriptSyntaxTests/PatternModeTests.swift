import Testing

@testable import JavaScriptSyntax

/// Pattern mode: `$...X` names and `...` ellipses, only in rule patterns.
@Suite struct PatternModeTests {
    private func pattern(_ source: String, _ dialect: JavaScriptDialect = .javaScript) throws -> String {
        try JavaScriptParser.parsePattern(bytes: Array(source.utf8), dialect: dialect).root.sexpr
    }

    @Test(
        arguments: [
            ("f(..., $...ARGS)", "(program (expressionStatement (call (identifier f) _ (arguments (ellipsis) (identifier $...ARGS)))))"),
            ("f(...x)", "(program (expressionStatement (call (identifier f) _ (arguments (spread (identifier x))))))"),
            ("{...}", "(program (expressionStatement (object (ellipsis))))"),
            ("[..., x]", "(program (expressionStatement (array (ellipsis) (identifier x))))"),
            ("x;\n...", "(program (expressionStatement (identifier x)) (expressionStatement (ellipsis)))"),
        ])
    func ellipsesAndMetavariables(source: String, expected: String) throws {
        #expect(try pattern(source) == expected, "pattern: \(source)")
    }

    @Test func ellipsisParametersAndMembersStandAlone() throws {
        let function = try JavaScriptParser.parsePattern(bytes: Array("function f(a, ...) {}".utf8), dialect: .javaScript).root
        #expect(nodes(function, .parameters).first?.children.map(\.kind) == [.parameter, .ellipsis])
        let cls = try JavaScriptParser.parsePattern(bytes: Array("class C { ... }".utf8), dialect: .typeScript).root
        #expect(nodes(cls, .classBody).first?.children.map(\.kind) == [.ellipsis])
    }

    @Test func codeHasNoPatternSyntax() {
        #expect(rejection("f(...)") != nil)
        #expect(rejection("f($...A)") != nil)
        #expect(rejection("[...]") != nil)
    }

    @Test func patternErrorsNameThePattern() {
        #expect(throws: JavaScriptSyntaxError.self) {
            try JavaScriptParser.parsePattern(bytes: Array("f(".utf8), dialect: .javaScript)
        }
        do {
            _ = try JavaScriptParser.parsePattern(bytes: Array("f(,)".utf8), dialect: .javaScript)
        } catch let error as JavaScriptSyntaxError {
            #expect(error.file == "<pattern>" && error.line == 1 && error.column == 3)
        } catch {
            Issue.record("wrong error \(error)")
        }
    }
}
