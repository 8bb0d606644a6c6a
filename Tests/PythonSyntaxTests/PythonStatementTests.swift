import Testing

@testable import PythonSyntax

/// Statements, blocks and indentation, checked against exact S-expressions.
@Suite("Python statements")
struct PythonStatementTests {
    @Test(
        "statement forms",
        arguments: [
            ("a = b = 1", "(module (assign (name a) (name b) (integer 1)))"),
            ("a, *b = c", "(module (assign (tuple (name a) (starred (name b))) (name c)))"),
            ("[a, (b, c)] = d", "(module (assign (list (name a) (tuple (name b) (name c))) (name d)))"),
            ("x.y[z] += 1", "(module (augAssign += (subscript (attribute y (name x)) (name z)) (integer 1)))"),
            (
                "x **= 2; y //= 3; z @= w",
                "(module (augAssign **= (name x) (integer 2)) (augAssign //= (name y) (integer 3)) (augAssign @= (name z) (name w)))"
            ),
            ("x: int", "(module (annAssign (name x) (name int) _))"),
            ("x: list[int] = []", "(module (annAssign (name x) (subscript (name list) (name int)) (list)))"),
            ("type X = int | None", "(module (typeAlias X (name X) (typeParams) (binOp | (name int) (none))))"),
            (
                "type L[T] = list[T]",
                "(module (typeAlias L (name L) (typeParams (typeParam T _)) (subscript (name list) (name T))))"
            ),
            ("type = 5", "(module (assign (name type) (integer 5)))"),
            ("del a, b[0]", "(module (delete (name a) (subscript (name b) (integer 0))))"),
            ("import os.path as p, sys", "(module (import (alias os.path (name p)) (alias sys)))"),
            ("from ..a.b import (c as d, e,)", "(module (importFrom ..a.b (alias c (name d)) (alias e)))"),
            ("from . import *", "(module (importFrom . (alias *)))"),
            ("global a, b\nnonlocal c", "(module (global (name a) (name b)) (nonlocal (name c)))"),
            ("raise E from e", "(module (raise (name E) (name e)))"),
            ("raise", "(module (raise _ _))"),
            ("assert x, 'm'", "(module (assert (name x) (string \"m\")))"),
            ("return", "(module (return))"),
            ("return 1, 2", "(module (return (tuple (integer 1) (integer 2))))"),
            ("x = yield", "(module (assign (name x) (yield)))"),
            ("pass; break; continue", "(module (pass) (break) (continue))"),
            (
                "if a:\n    x\nelif b:\n    y\nelse:\n    z",
                "(module (if (name a) (block (exprStmt (name x))) (block (if (name b) (block (exprStmt (name y))) (block (exprStmt (name z)))))))"
            ),
            (
                "if (n := len(a)) > 10: pass",
                "(module (if (compare > (namedExpr (name n) (call (name len) (name a))) (integer 10)) (block (pass)) _))"
            ),
            (
                "while x:\n    pass\nelse:\n    y",
                "(module (while (name x) (block (pass)) (block (exprStmt (name y)))))"
            ),
            ("for i, j in x:\n    pass", "(module (for (tuple (name i) (name j)) (name x) (block (pass)) _))"),
            (
                "async def f():\n    async for x in y: pass\n    async with a as b: pass\n    await z",
                "(module (asyncFunctionDef f (decorators) (typeParams) (parameters) _ (block (asyncFor (name x) (name y) (block (pass)) _) (asyncWith (withItem (name a) (name b)) (block (pass))) (exprStmt (await (name z))))))"
            ),
            (
                "with a as (b, c), d: pass",
                "(module (with (withItem (name a) (tuple (name b) (name c))) (withItem (name d) _) (block (pass))))"
            ),
            (
                "with (a as b, c as d,): pass",
                "(module (with (withItem (name a) (name b)) (withItem (name c) (name d)) (block (pass))))"
            ),
            ("with (a, b): pass", "(module (with (withItem (name a) _) (withItem (name b) _) (block (pass))))"),
            ("with (yield): pass", "(module (with (withItem (yield) _) (block (pass))))"),
            (
                "try:\n    a\nexcept (E, F) as e:\n    b\nexcept:\n    c\nelse:\n    d\nfinally:\n    f",
                "(module (try (block (exprStmt (name a))) (exceptHandler e (tuple (name E) (name F)) (block (exprStmt (name b)))) (exceptHandler _ (block (exprStmt (name c)))) (block (exprStmt (name d))) (block (exprStmt (name f)))))"
            ),
            (
                "try:\n    a\nexcept* E:\n    b",
                "(module (tryStar (block (exprStmt (name a))) (exceptHandler (name E) (block (exprStmt (name b)))) _ _))"
            ),
            (
                "@dec\n@a.b(c)[d]\nclass C(B, metaclass=M):\n    x = 1",
                "(module (classDef C (decorators (decorator (name dec)) (decorator (subscript (call (attribute b (name a)) (name c)) (name d)))) (typeParams) (arguments (name B) (keyword metaclass (name M))) (block (assign (name x) (integer 1)))))"
            ),
            (
                "def f(a, /, b: int = 1, *args: str, c, d=2, **kw) -> None: pass",
                "(module (functionDef f (decorators) (typeParams) (parameters (parameter a _ _) (positionalOnlyMarker) (parameter b (name int) (integer 1)) (varArgs args (name str)) (parameter c _ _) (parameter d _ (integer 2)) (kwArgs kw _)) (none) (block (pass))))"
            ),
            (
                "def f(*, a): pass",
                "(module (functionDef f (decorators) (typeParams) (parameters (keywordOnlyMarker) (parameter a _ _)) _ (block (pass))))"
            ),
            (
                "def f[T: int, *Ts, **P](x: T) -> T: ...",
                "(module (functionDef f (decorators) (typeParams (typeParam T (name int)) (typeParam *Ts _) (typeParam **P _)) (parameters (parameter x (name T) _)) (name T) (block (exprStmt (ellipsis)))))"
            ),
            ("class C: pass", "(module (classDef C (decorators) (typeParams) (arguments) (block (pass))))"),
            (
                "match = 1\nmatch.x = 2\nmatch(a)",
                "(module (assign (name match) (integer 1)) (assign (attribute x (name match)) (integer 2)) (exprStmt (call (name match) (name a))))"
            ),
            (
                "match p:\n    case [1, *rest]: pass\n    case {'k': v, **kw}: pass\n    case Point(x=0, y=_) | None: pass\n    case (a, b) if a > b: pass\n    case str() as s: pass\n    case -1 | 1+2j | Color.RED: pass\n    case _: pass",
                "(module (match (name p) (matchCase (matchSequence (matchValue (integer 1)) (matchStar rest)) _ (block (pass))) (matchCase (matchMapping (matchKeyValue (string \"k\") (matchAs v)) (matchRest kw)) _ (block (pass))) (matchCase (matchOr (matchClass (name Point) (matchKeyword x (matchValue (integer 0))) (matchKeyword y (matchAs))) (matchSingleton None)) _ (block (pass))) (matchCase (matchSequence (matchAs a) (matchAs b)) (compare > (name a) (name b)) (block (pass))) (matchCase (matchAs s (matchClass (name str))) _ (block (pass))) (matchCase (matchOr (matchValue (unaryOp - (integer 1))) (matchValue (binOp + (integer 1) (imaginary 2j))) (matchValue (attribute RED (name Color)))) _ (block (pass))) (matchCase (matchAs) _ (block (pass)))))"
            ),
            (
                "match a, b:\n    case x, y: pass",
                "(module (match (tuple (name a) (name b)) (matchCase (matchSequence (matchAs x) (matchAs y)) _ (block (pass)))))"
            ),
            (
                "x = [\n  1,\n    2]\ny = 3",
                "(module (assign (name x) (list (integer 1) (integer 2))) (assign (name y) (integer 3)))"
            ),
            ("x = 1 + \\\n    2", "(module (assign (name x) (binOp + (integer 1) (integer 2))))"),
            (
                "if a:\n\tx = 1\n\tif b:\n\t\ty = 2\n\tz = 3",
                "(module (if (name a) (block (assign (name x) (integer 1)) (if (name b) (block (assign (name y) (integer 2))) _) (assign (name z) (integer 3))) _))"
            ),
            (
                "if a:\n    x = 1\n\n   # odd comment\n\n    y = 2\n",
                "(module (if (name a) (block (assign (name x) (integer 1)) (assign (name y) (integer 2))) _))"
            ),
            (
                "def f():\n    '''doc\n\n  string'''\n    return 1",
                "(module (functionDef f (decorators) (typeParams) (parameters) _ (block (exprStmt (string \"doc\\n\\n  string\")) (return (integer 1)))))"
            ),
            (
                "if a: b; c\nd",
                "(module (if (name a) (block (exprStmt (name b)) (exprStmt (name c))) _) (exprStmt (name d)))"
            ),
            ("\u{FEFF}x = 1\r\ny = 2\r\n", "(module (assign (name x) (integer 1)) (assign (name y) (integer 2)))"),
            ("x = 1  # trailing", "(module (assign (name x) (integer 1)))"),
            ("", "(module)"),
            ("# only a comment\n\n", "(module)"),
            (
                "class A:\n    def f(self):\n        pass\n  # dedented comment\n    def g(self): pass",
                "(module (classDef A (decorators) (typeParams) (arguments) (block (functionDef f (decorators) (typeParams) (parameters (parameter self _ _)) _ (block (pass))) (functionDef g (decorators) (typeParams) (parameters (parameter self _ _)) _ (block (pass))))))"
            ),
            (
                "f = lambda *a, **k: (a, k)",
                "(module (assign (name f) (lambda (parameters (varArgs a _) (kwArgs k _)) (tuple (name a) (name k)))))"
            ),
            (
                "print if x else y\nprint in z",
                "(module (exprStmt (ifExp (name print) (name x) (name y))) (exprStmt (compare in (name print) (name z))))"
            ),
            (
                "print(x)\nprint (x), y\nexec(code)",
                "(module (exprStmt (call (name print) (name x))) (exprStmt (tuple (call (name print) (name x)) (name y))) (exprStmt (call (name exec) (name code))))"
            ),
            (
                "for x in *a, *b: pass",
                "(module (for (name x) (tuple (starred (name a)) (starred (name b))) (block (pass)) _))"
            ),
        ])
    func statement(source: String, expected: String) throws {
        #expect(try PyTest.module(source) == expected, "source: \(source)")
    }

    @Test("comments are kept with positions and trailing flags")
    func comments() throws {
        let m = try PythonParser.parseModule(
            source: "# head\nx = f()  # nosec B602\nif a:\n    # sentinel: ignore[PY001] reason\n    y = 1\n",
            fileName: "c.py")
        #expect(m.comments.map(\.text) == ["# head", "# nosec B602", "# sentinel: ignore[PY001] reason"])
        #expect(m.comments.map(\.range.start.line) == [1, 2, 4])
        #expect(m.comments.map(\.range.start.column) == [1, 10, 5])
        #expect(m.comments.map(\.isTrailing) == [false, true, false])
        #expect(m.lineCount == 5)
    }

    @Test("ranges are 1-based lines and columns with byte offsets")
    func ranges() throws {
        let m = try PythonParser.parseModule(source: "x = 1\nif y:\n    z = foo(a,\n            b)\n", fileName: "r.py")
        let ifNode = m.root.children[1]
        #expect(ifNode.range.start == SourceLocation(line: 2, column: 1, offset: 6))
        let call = ifNode.children[1].children[0].children[1]
        #expect(call.kind == .call)
        #expect(call.range.start.line == 3 && call.range.start.column == 9)
        #expect(call.range.end.line == 4 && call.range.end.column == 15)
        let fm = try PythonParser.parseModule(source: "x = 1\ny = f'''a\n  {b + c!r}'''\n", fileName: "f.py")
        let field = try #require(fm.root.preorder.first { $0.kind == .formattedValue })
        #expect(field.range.start == SourceLocation(line: 3, column: 3, offset: 18))
        let c = try #require(fm.root.preorder.first { $0.kind == .name && $0.text == "c" })
        #expect(c.range.start == SourceLocation(line: 3, column: 8, offset: 23))
        let b = call.children[2]
        #expect(b.range.start == SourceLocation(line: 4, column: 13, offset: 39))
    }
}
