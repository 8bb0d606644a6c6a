import JavaScriptLowering
import JavaScriptSyntax
import SyntaxTree
import Testing

/// Rule patterns written in JavaScript and TypeScript, lowered to the shapes Python's patterns have.
@Suite struct PatternTests {
    @Test(
        arguments: [
            ("$X", "(name $X)"),
            ("$RES.send($X)", "(call (attribute send (name $RES)) (name $X))"),
            ("$X = $Y", "(assign (name $X) (name $Y))"),
            ("f($...ARGS)", "(call (name f) (name $...ARGS))"),
            ("...", "(ellipsis)"),
            ("f(...)", "(call (name f) (ellipsis))"),
            ("f($X, ...)", "(call (name f) (name $X) (ellipsis))"),
            ("f(..., $X, ...)", "(call (name f) (ellipsis) (name $X) (ellipsis))"),
            ("f(...args)", "(call (name f) (starred (name args)))"),
            ("f(...$X)", "(call (name f) (starred (name $X)))"),
            ("new Function(...)", "(call new (name Function) (ellipsis))"),
            ("child_process.exec($CMD, ...)", "(call (attribute exec (name child_process)) (name $CMD) (ellipsis))"),
            ("{...}", "(dict (ellipsis))"),
            ("{..., secret: $S}", #"(dict (ellipsis) (keyValue (string "secret") (name $S)))"#),
            ("{$K: $V}", "(dict (keyValue (name $K) (name $V)))"),
            ("{...o}", "(dict (doubleStarred (name o)))"),
            ("[..., $X]", "(list (ellipsis) (name $X))"),
            ("[...]", "(list (ellipsis))"),
            ("[...xs]", "(list (starred (name xs)))"),
            ("$X + ...", "(binOp + (name $X) (ellipsis))"),
            (#"db.query("..." + $X)"#, #"(call (attribute query (name db)) (binOp + (string "...") (name $X)))"#),
            ("`SELECT ${$X}`", #"(joinedStr (string "SELECT ") (formattedValue (name $X) _))"#),
            ("$.ajax(...)", "(call (attribute ajax (name $)) (ellipsis))"),
        ])
    func expressions(source: String, expected: String) throws {
        #expect(try JavaScriptLowering.lowerPattern(source).sexpr == expected, "pattern: \(source)")
    }

    @Test(
        arguments: [
            (
                "function $F($REQ, ...) { ... }",
                "(functionDef $F (decorators) (typeParams) (parameters (parameter $REQ _ _) (ellipsis)) _ (block (exprStmt (ellipsis))))"
            ),
            (
                "async function $F(...) { ... }",
                "(asyncFunctionDef $F (decorators) (typeParams) (parameters (ellipsis)) _ (block (exprStmt (ellipsis))))"
            ),
            (
                "($REQ, ...) => ...",
                "(functionDef (decorators) (typeParams) (parameters (parameter $REQ _ _) (ellipsis)) _ (block (return (ellipsis))))"
            ),
            ("class $C { ... }", "(classDef $C (decorators) (typeParams) (arguments) (block (exprStmt (ellipsis))))"),
            ("if ($C) { ... }", "(if (name $C) (block (exprStmt (ellipsis))) _)"),
            ("const $X = require('node:child_process')", "(import (alias child_process (name $X)))"),
            ("import { exec } from 'child_process'", "(importFrom child_process (alias exec))"),
        ])
    func statements(source: String, expected: String) throws {
        #expect(try JavaScriptLowering.lowerPattern(source).sexpr == expected, "pattern: \(source)")
    }

    @Test func inlineFunctionsAreNotHoisted() throws {
        #expect(
            try JavaScriptLowering.lowerPattern("app.get($PATH, (req, res) => { ... })").sexpr
                == "(call (attribute get (name app)) (name $PATH) (functionDef (decorators) (typeParams) (parameters (parameter req _ _) (parameter res _ _)) _ (block (exprStmt (ellipsis)))))"
        )
        #expect(
            try JavaScriptLowering.lowerPattern("$ROUTER.post(..., function $H(...) { ... })").sexpr
                == "(call (attribute post (name $ROUTER)) (ellipsis) (functionDef $H (decorators) (typeParams) (parameters (ellipsis)) _ (block (exprStmt (ellipsis)))))"
        )
    }

    @Test func multiStatementPatternsAreAModuleAndDedented() throws {
        let pattern = """

                const $X = req.query.$P;
                ...
                db.query($X)
            """
        #expect(
            try JavaScriptLowering.lowerPattern(pattern).sexpr
                == "(module (assign (name $X) (attribute $P (attribute query (name req)))) (exprStmt (ellipsis)) (exprStmt (call (attribute query (name db)) (name $X))))"
        )
        #expect(try JavaScriptLowering.lowerPattern("").sexpr == "(module)")
    }

    @Test func typeScriptPatterns() throws {
        #expect(
            try JavaScriptLowering.lowerPattern("function $F($X: string): $T { ... }", dialect: .typeScript).sexpr
                == "(functionDef $F (decorators) (typeParams) (parameters (parameter $X (name string) _)) (name $T) (block (exprStmt (ellipsis))))"
        )
        #expect(
            try JavaScriptLowering.lowerPattern("($X as any).exec(...)", dialect: .typeScript).sexpr
                == "(call (attribute exec (name $X)) (ellipsis))")
        #expect(
            try JavaScriptLowering.lowerPattern("@Get(...)\nclass $C { ... }", dialect: .typeScript).sexpr
                == "(classDef $C (decorators (decorator (call (name Get) (ellipsis)))) (typeParams) (arguments) (block (exprStmt (ellipsis))))"
        )
    }

    @Test(arguments: ["f(", "f(,)", "$...", "function (", "a b", "{ a: }"])
    func errorsNameThePattern(pattern: String) {
        do {
            _ = try JavaScriptLowering.lowerPattern(pattern)
            Issue.record("expected an error for \(pattern)")
        } catch let error as JavaScriptPatternError {
            #expect(error.pattern == pattern)
            #expect(error.syntaxError.file == JavaScriptParser.patternFileName)
            #expect(error.description.hasPrefix("JavaScript pattern '\(pattern)': <pattern>:1:"))
        } catch {
            Issue.record("wrong error \(error)")
        }
    }

    @Test func errorPositionsCountInThePattern() {
        do {
            _ = try JavaScriptLowering.lowerPattern("foo(,)")
            Issue.record("expected an error")
        } catch let error as JavaScriptPatternError {
            #expect(error.syntaxError.line == 1 && error.syntaxError.column == 5)
        } catch {
            Issue.record("wrong error \(error)")
        }
    }
}
