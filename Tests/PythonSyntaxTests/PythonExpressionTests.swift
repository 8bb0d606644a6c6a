import Testing

@testable import PythonSyntax

/// Precedence, associativity and every expression form, checked against exact S-expressions.
@Suite("Python expressions")
struct PythonExpressionTests {
    @Test(
        "precedence and associativity",
        arguments: [
            ("a + b * c", "(binOp + (name a) (binOp * (name b) (name c)))"),
            ("a - b - c", "(binOp - (binOp - (name a) (name b)) (name c))"),
            ("a ** b ** c", "(binOp ** (name a) (binOp ** (name b) (name c)))"),
            ("-a ** 2", "(unaryOp - (binOp ** (name a) (integer 2)))"),
            ("a ** -b", "(binOp ** (name a) (unaryOp - (name b)))"),
            ("-a * b", "(binOp * (unaryOp - (name a)) (name b))"),
            (
                "a | b ^ c & d << e + f",
                "(binOp | (name a) (binOp ^ (name b) (binOp & (name c) (binOp << (name d) (binOp + (name e) (name f))))))"
            ),
            ("a // b % c @ d", "(binOp @ (binOp % (binOp // (name a) (name b)) (name c)) (name d))"),
            ("not a == b", "(unaryOp not (compare == (name a) (name b)))"),
            ("a and b or c and d", "(boolOp or (boolOp and (name a) (name b)) (boolOp and (name c) (name d)))"),
            ("a or b or c", "(boolOp or (name a) (name b) (name c))"),
            ("not a and not b", "(boolOp and (unaryOp not (name a)) (unaryOp not (name b)))"),
            ("a < b <= c != d", "(compare <,<=,!= (name a) (name b) (name c) (name d))"),
            ("a not in b", "(compare not in (name a) (name b))"),
            ("a is not b", "(compare is not (name a) (name b))"),
            ("x if c else y if d else z", "(ifExp (name x) (name c) (ifExp (name y) (name d) (name z)))"),
            ("lambda: 0", "(lambda (parameters) (integer 0))"),
            (
                "lambda x, y=1, *a, k, **kw: x",
                "(lambda (parameters (parameter x _ _) (parameter y _ (integer 1)) (varArgs a _) (parameter k _ _) (kwArgs kw _)) (name x))"
            ),
            ("a if b else lambda: c", "(ifExp (name a) (name b) (lambda (parameters) (name c)))"),
            ("~a + +b", "(binOp + (unaryOp ~ (name a)) (unaryOp + (name b)))"),
            ("await f(x) ** 2", "(binOp ** (await (call (name f) (name x))) (integer 2))"),
            ("a.b.c(d)[e]", "(subscript (call (attribute c (attribute b (name a))) (name d)) (name e))"),
            ("(a)", "(name a)"),
            ("(a,)", "(tuple (name a))"),
            ("()", "(tuple)"),
            ("a, *b", "(tuple (name a) (starred (name b)))"),
            ("(yield)", "(yield)"),
            ("(yield from g)", "(yieldFrom (name g))"),
            ("(x := 5)", "(namedExpr (name x) (integer 5))"),
            ("f(x := 1, y=2)", "(call (name f) (namedExpr (name x) (integer 1)) (keyword y (integer 2)))"),
            (
                "f(a, *b, c=1, **d)",
                "(call (name f) (name a) (starred (name b)) (keyword c (integer 1)) (doubleStarred (name d)))"
            ),
            ("f(x for x in y)", "(call (name f) (generatorExp (name x) (comprehension (name x) (name y))))"),
            (
                "a[1:2, ::3, 4]",
                "(subscript (name a) (tuple (slice (integer 1) (integer 2) _) (slice _ _ (integer 3)) (integer 4)))"
            ),
            ("a[:]", "(subscript (name a) (slice _ _ _))"),
            ("a[::]", "(subscript (name a) (slice _ _ _))"),
            ("a[b:]", "(subscript (name a) (slice (name b) _ _))"),
            ("a[*b]", "(subscript (name a) (tuple (starred (name b))))"),
            (
                "[x for x in y if x if z for w in x]",
                "(listComp (name x) (comprehension (name x) (name y) (name x) (name z)) (comprehension (name w) (name x)))"
            ),
            (
                "{k: v for k, v in d.items()}",
                "(dictComp (name k) (name v) (comprehension (tuple (name k) (name v)) (call (attribute items (name d)))))"
            ),
            ("{x async for x in y}", "(setComp (name x) (comprehension async (name x) (name y)))"),
            ("{a: 1, **b}", "(dict (keyValue (name a) (integer 1)) (doubleStarred (name b)))"),
            ("{}", "(dict)"),
            ("{a, *b}", "(set (name a) (starred (name b)))"),
            (
                "[1, 2.5, 3j, 0x1F, 0o17, 0b101, 1_000, 1e-3, .5]",
                "(list (integer 1) (float 2.5) (imaginary 3j) (integer 0x1F) (integer 0o17) (integer 0b101) (integer 1000) (float 1e-3) (float .5))"
            ),
            ("None, True, False, ...", "(tuple (none) (true) (false) (ellipsis))"),
            ("'a' 'b'", "(string \"ab\")"),
            ("b'\\x41' rb'\\n'", "(bytes \"A\\\\n\")"),
            ("'\\n\\t\\x41\\u00e9\\101\\q'", "(string \"\\n\\tAéA\\\\q\")"),
            ("u'x' R'\\d'", "(string \"x\\\\d\")"),
            ("x[a:b:c] @ y", "(binOp @ (subscript (name x) (slice (name a) (name b) (name c))) (name y))"),
            ("a if b else c or d", "(ifExp (name a) (name b) (boolOp or (name c) (name d)))"),
            (
                "f(*a, *b, **c, d=1)",
                "(call (name f) (starred (name a)) (starred (name b)) (doubleStarred (name c)) (keyword d (integer 1)))"
            ),
            ("a.match.case.type", "(attribute type (attribute case (attribute match (name a))))"),
            ("match(x)", "(call (name match) (name x))"),
            ("print(x, file=f)", "(call (name print) (name x) (keyword file (name f)))"),
            ("1 if x else 2", "(ifExp (integer 1) (name x) (integer 2))"),
            ("not not x", "(unaryOp not (unaryOp not (name x)))"),
            ("- - x", "(unaryOp - (unaryOp - (name x)))"),
            ("a < (b < c)", "(compare < (name a) (compare < (name b) (name c)))"),
            ("[*a, b]", "(list (starred (name a)) (name b))"),
        ])
    func expression(source: String, expected: String) throws {
        #expect(try PyTest.expr(source) == expected, "source: \(source)")
    }

    @Test(
        "f-strings",
        arguments: [
            ("f'a{b}c'", "(joinedStr (string \"a\") (formattedValue (name b) _) (string \"c\"))"),
            (
                "f'{x!r:>{width}}'",
                "(joinedStr (formattedValue r (name x) (joinedStr (string \">\") (formattedValue (name width) _))))"
            ),
            ("f'{{literal}} {x}'", "(joinedStr (string \"{literal} \") (formattedValue (name x) _))"),
            ("f\"{d['key']}\"", "(joinedStr (formattedValue (subscript (name d) (string \"key\")) _))"),
            ("f\"{d[\"key\"]}\"", "(joinedStr (formattedValue (subscript (name d) (string \"key\")) _))"),
            ("f'{x=}'", "(joinedStr (string \"x=\") (formattedValue r (name x) _))"),
            ("f'{x = !s}'", "(joinedStr (string \"x = \") (formattedValue s (name x) _))"),
            ("f'{a!=b}'", "(joinedStr (formattedValue (compare != (name a) (name b)) _))"),
            ("'a' f'{b}' 'c'", "(joinedStr (string \"a\") (formattedValue (name b) _) (string \"c\"))"),
            ("f'{f\"{x}\"}'", "(joinedStr (formattedValue (joinedStr (formattedValue (name x) _)) _))"),
            (
                "f'{x:{y}.{z}f}'",
                "(joinedStr (formattedValue (name x) (joinedStr (formattedValue (name y) _) (string \".\") (formattedValue (name z) _) (string \"f\"))))"
            ),
            ("rf'\\d{x}'", "(joinedStr (string \"\\\\d\") (formattedValue (name x) _))"),
            (
                "f'''multi\n{x\n + 1}'''",
                "(joinedStr (string \"multi\\n\") (formattedValue (binOp + (name x) (integer 1)) _))"
            ),
            ("f'{a:%Y-%m-%d}'", "(joinedStr (formattedValue (name a) (joinedStr (string \"%Y-%m-%d\"))))"),
            ("f'{(lambda: 1)()}'", "(joinedStr (formattedValue (call (lambda (parameters) (integer 1))) _))"),
            ("f'{3.14!s  :10.10}'", "(joinedStr (formattedValue s (float 3.14) (joinedStr (string \"10.10\"))))"),
            ("f\"{1+2 = # c\n  }\"", "(joinedStr (string \"1+2 = # c\\n  \") (formattedValue r (binOp + (integer 1) (integer 2)) _))"),
            ("f'''{x  # comment\n}'''", "(joinedStr (formattedValue (name x) _))"),
            ("f'{naïve}' + été", "(binOp + (joinedStr (formattedValue (name naïve) _)) (name été))"),
            ("f'\\n{x}'", "(joinedStr (string \"\\n\") (formattedValue (name x) _))"),
        ])
    func fString(source: String, expected: String) throws {
        #expect(try PyTest.expr(source) == expected, "source: \(source)")
    }

    @Test("string literals keep raw source and decoded value")
    func rawAndDecoded() throws {
        let m = try PythonParser.parseModule(source: "x = r'\\d+' 'a\\n'\n", fileName: "t.py")
        let value = m.root.children[0].children[1]
        #expect(value.kind == .string)
        #expect(value.text == "\\d+a\n")
        #expect(value.raw == "r'\\d+' 'a\\n'")
    }
}
