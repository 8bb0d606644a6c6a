import Testing

@testable import PythonSyntax

/// Pattern mode: metavariables and `...` wherever the rule language needs them.
@Suite("Python patterns")
struct PythonPatternTests {
    @Test(
        "patterns parse to the expected trees",
        arguments: [
            (
                "subprocess.call(..., shell=True, ...)",
                "(call (attribute call (name subprocess)) (ellipsis) (keyword shell (true)) (ellipsis))"
            ),
            (
                "def $F(...):\n    ...",
                "(functionDef $F (decorators) (typeParams) (parameters (ellipsis)) _ (block (exprStmt (ellipsis))))"
            ),
            ("$X = $Y", "(assign (name $X) (name $Y))"),
            ("$F($...ARGS, key=$V)", "(call (name $F) (name $...ARGS) (keyword key (name $V)))"),
            ("foo(key=$V, $...REST)", "(call (name foo) (keyword key (name $V)) (name $...REST))"),
            (
                "$X = open(...)\n...\n$X.close()",
                "(module (assign (name $X) (call (name open) (ellipsis))) (exprStmt (ellipsis)) (exprStmt (call (attribute close (name $X)))))"
            ),
            ("{..., 'k': $V, ...}", "(dict (ellipsis) (keyValue (string \"k\") (name $V)) (ellipsis))"),
            ("{...}", "(set (ellipsis))"),
            ("[..., $X, ...]", "(list (ellipsis) (name $X) (ellipsis))"),
            ("f\"...{$X}...\"", "(joinedStr (string \"...\") (formattedValue (name $X) _) (string \"...\"))"),
            ("import $M", "(import (alias $M))"),
            (
                "def f($A, ..., $B=1): pass",
                "(functionDef f (decorators) (typeParams) (parameters (parameter $A _ _) (ellipsis) (parameter $B _ (integer 1))) _ (block (pass)))"
            ),
            (
                "\n    if $C:\n        ...\n    else:\n        $S\n",
                "(if (name $C) (block (exprStmt (ellipsis))) (block (exprStmt (name $S))))"
            ),
            (
                "cursor.execute(\"...\" % ...)",
                "(call (attribute execute (name cursor)) (binOp % (string \"...\") (ellipsis)))"
            ),
            (
                "@app.route(...)\ndef $F(...): ...",
                "(functionDef $F (decorators (decorator (call (attribute route (name app)) (ellipsis)))) (typeParams) (parameters (ellipsis)) _ (block (exprStmt (ellipsis))))"
            ),
        ])
    func pattern(source: String, expected: String) throws {
        #expect(try PythonParser.parsePattern(source).sexpr == expected, "pattern: \(source)")
    }

    @Test("metavariables are only accepted in pattern mode")
    func metavariablesNeedPatternMode() throws {
        #expect(throws: PythonSyntaxError.self) { try PythonParser.parseModule(source: "$X = 1\n", fileName: "m.py") }
        #expect(throws: PythonSyntaxError.self) { try PythonParser.parsePattern("$ = 1") }
        #expect(throws: PythonSyntaxError.self) { try PythonParser.parsePattern("f(") }
        // Outside patterns a positional `...` after a keyword keeps CPython's rule.
        #expect(throws: PythonSyntaxError.self) {
            try PythonParser.parseModule(source: "f(a=1, ...)\n", fileName: "m.py")
        }
    }

    @Test("pattern errors name <pattern>")
    func patternErrors() {
        do {
            _ = try PythonParser.parsePattern("foo(,)")
            Issue.record("expected an error")
        } catch let e as PythonSyntaxError {
            #expect(e.file == "<pattern>")
            #expect(e.line == 1 && e.column == 5)
        } catch {
            Issue.record("wrong error \(error)")
        }
    }
}
