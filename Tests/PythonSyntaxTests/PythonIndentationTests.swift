import Testing

@testable import PythonSyntax

/// INDENT/DEDENT edge cases: tabs, form feeds, comments and blank lines at odd indents, brackets and
/// continuations across lines, and files that end mid-block.
@Suite("Python indentation")
struct PythonIndentationTests {
    @Test(
        "valid layouts",
        arguments: [
            (
                "if a:\n  x\n  if b:\n      y\n  z\n",
                "(module (if (name a) (block (exprStmt (name x)) (if (name b) (block (exprStmt (name y))) _) (exprStmt (name z))) _))"
            ),
            ("if a:\n\tx\n\ty\n", "(module (if (name a) (block (exprStmt (name x)) (exprStmt (name y))) _))"),
            (
                "if a:\n    x\n\u{0C}\nif b:\n    y",
                "(module (if (name a) (block (exprStmt (name x))) _) (if (name b) (block (exprStmt (name y))) _))"
            ),
            (
                "def f():\n    return 1\n        # deeper comment\n# shallow comment\ny = 2\n",
                "(module (functionDef f (decorators) (typeParams) (parameters) _ (block (return (integer 1)))) (assign (name y) (integer 2)))"
            ),
            (
                "def f():\n    x = (1,\n2,\n        3)\n    return x",
                "(module (functionDef f (decorators) (typeParams) (parameters) _ (block (assign (name x) (tuple (integer 1) (integer 2) (integer 3))) (return (name x)))))"
            ),
            (
                "def f():\n    x = 1 + \\\n2\n    return x",
                "(module (functionDef f (decorators) (typeParams) (parameters) _ (block (assign (name x) (binOp + (integer 1) (integer 2))) (return (name x)))))"
            ),
            (
                "class A:\n    def f(self):\n        if x:\n            return 1",
                "(module (classDef A (decorators) (typeParams) (arguments) (block (functionDef f (decorators) (typeParams) (parameters (parameter self _ _)) _ (block (if (name x) (block (return (integer 1))) _))))))"
            ),
            (
                "x = '''\n  not indentation\n'''\ny = 1",
                "(module (assign (name x) (string \"\\n  not indentation\\n\")) (assign (name y) (integer 1)))"
            ),
            ("if a:\n    pass\n    \n  \t\nelse:\n    pass", "(module (if (name a) (block (pass)) (block (pass))))"),
            ("while 1:\r\n    pass\r\n", "(module (while (integer 1) (block (pass)) _))"),
            ("while 1:\r    pass\r", "(module (while (integer 1) (block (pass)) _))"),
            (
                "x = [\n    1,  # one\n    # alone\n    2,\n]",
                "(module (assign (name x) (list (integer 1) (integer 2))))"
            ),
        ])
    func layout(source: String, expected: String) throws {
        #expect(try PyTest.module(source) == expected, "source: \(source.debugDescription)")
    }

    @Test(
        "invalid layouts",
        arguments: [
            ("if a:\n    x\n  y\n", 3),
            ("def f():\n# only a comment\n", 3),
            ("for x in y:\nz\n", 2),
            ("if a:\n    x\n        y\n", 3),
            ("class A:\n", 2),
            ("if a:\n\tx\n        y\n", 3),
            ("if a:\n        x\n\ty\n", 3),
        ])
    func invalidLayout(source: String, line: Int) throws {
        let e = try #require(PyTest.error(source))
        // A layout only the tab size decides is TabError in Python 3, valid Python 2.
        #expect(e.code == .indentation || e.code == .unexpectedEndOfFile || e.code == .python2Syntax, "\(e)")
        #expect(e.line == line, "\(e)")
    }
}
