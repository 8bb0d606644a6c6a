import Support
import Testing

@testable import PythonSyntax

/// The Python 2 dialect: each Python 2 form reads as the tree of its Python 3 spelling, Python 3
/// files are untouched, and broken Python 2 is an error naming the file.
@Suite("Python 2 dialect")
struct PythonDialectTests {
    static func python2(_ source: String) throws -> PythonModule {
        try LargeStack.run {
            try PythonParser.parseAnyDialectOnCurrentThread(bytes: Array(source.utf8), fileName: "old.py")
        }
    }

    @Test(
        "each Python 2 form parses to the tree of its Python 3 spelling",
        arguments: [
            ("print 'a', x\n", "print('a', x)\n"),
            ("x = `y`\nprint\n", "x = repr(y)\nprint()\n"),
            ("print x,\n", "print(x)\n"),
            ("x = `y`\nprint >>sys.stderr, 'e', x\n", "x = repr(y)\nprint('e', x, file=sys.stderr)\n"),
            ("print >>f\nprint x\n", "print(file=f)\nprint(x)\n"),
            ("print x\nprint ('a %s' % x)\n", "print(x)\nprint('a %s' % x)\n"),
            ("print x\nprint ('a', x)\n", "print(x)\nprint('a', x)\n"),
            ("if x: print x; y = 1\n", "if x: print(x); y = 1\n"),
            ("exec code\n", "exec(code)\n"),
            ("exec code in g\n", "exec(code, g)\n"),
            ("exec code in g, l\n", "exec(code, g, l)\n"),
            ("exec (code, g)\nexec code\n", "exec(code, g)\nexec(code)\n"),
            ("print x\ntry:\n    f()\nexcept E, e:\n    g(e)\n", "print(x)\ntry:\n    f()\nexcept E as e:\n    g(e)\n"),
            ("print x\ntry:\n    f()\nexcept (A, B), e:\n    g(e)\n", "print(x)\ntry:\n    f()\nexcept (A, B) as e:\n    g(e)\n"),
            ("x = `y`\n", "x = repr(y)\n"),
            ("x = `a, b` + `c`\n", "x = repr((a, b)) + repr(c)\n"),
            ("if a <> b: pass\n", "if a != b: pass\n"),
            ("os.chmod(p, 0777)\n", "os.chmod(p, 0o777)\n"),
            ("x = 10L + 0x1fL + 0777L + 0L\n", "x = 10 + 0x1f + 0o777 + 0\n"),
            ("s = ur'\\d+' + UR'x' + u'y'\n", "s = r'\\d+' + r'x' + u'y'\n"),
            ("raise E, 'bad'\n", "raise E('bad')\n"),
            ("raise E, (a, b)\n", "raise E(a, b)\n"),
            ("raise E, msg, tb\n", "raise E(msg)\n"),
            ("def f(a, (b, c)):\n    return b\n", "def f(a, _1):\n    (b, c) = _1\n    return b\n"),
            ("def f((a, (b, c)), d=1):\n    pass\n", "def f(_0, d=1):\n    (a, (b, c)) = _0\n    pass\n"),
            ("g = lambda (a, b): a\n", "g = lambda _0: a\n"),
            (
                "from __future__ import print_function\nprint('a', x)\nx = `y`\n",
                "from __future__ import print_function\nprint('a', x)\nx = repr(y)\n"
            ),
            ("if x:\n    if y:\n\ta = 1\n", "if x:\n    if y:\n        a = 1\n"),
            (
                "print x\ntry:\n    f()\nexcept E, (n, m):\n    g(m)\n",
                "print(x)\ntry:\n    f()\nexcept E as _exception:\n    (n, m) = _exception\n    g(m)\n"
            ),
            (
                "print x\ntry:\n    f()\nexcept E, self.e:\n    pass\n",
                "print(x)\ntry:\n    f()\nexcept E as _exception:\n    self.e = _exception\n    pass\n"
            ),
            ("def f(a, (b, c)=(1, 2)):\n    pass\n", "def f(a, _1=(1, 2)):\n    (b, c) = _1\n    pass\n"),
            ("print x\nprint('a', file=f)\n", "print(x)\nprint('a', file=f)\n"),
            ("print [m for m in a, b if m]\n", "print([m for m in (a, b) if m])\n"),
            ("s = 'a\\u00e9 \\N{x} \\x41'\nprint s\n", "s = 'a\\\\u00e9 \\\\N{x} A'\nprint(s)\n"),
        ])
    func sameTree(python2: String, python3: String) throws {
        let old = try Self.python2(python2)
        #expect(old.dialect == .python2)
        #expect(old.python3Failure?.code == .python2Syntax)
        let new = try PythonParser.parseModule(source: python3, fileName: "new.py")
        // Tuple parameters are named `.N` as CPython 2 named them; Python 3 has no such name.
        let renamed = old.root.sexpr.replacingOccurrences(of: "(name .", with: "(name _")
            .replacingOccurrences(of: "(parameter .", with: "(parameter _")
            .replacingOccurrences(of: "(exceptHandler .", with: "(exceptHandler _")
        #expect(renamed == new.root.sexpr)
    }

    /// PEP 758: without anything else of Python 2, `except E, e:` is Python 3.14's two types.
    @Test("a file whose only Python 2 form is `except E, e:` is Python 3.14")
    func pep758() throws {
        let module = try Self.python2("try:\n    f()\nexcept E, e:\n    g(e)\n")
        #expect(module.dialect == .python3)
        let new = try PythonParser.parseModule(source: "try:\n    f()\nexcept (E, e):\n    g(e)\n", fileName: "new.py")
        #expect(module.root.sexpr == new.root.sexpr)
    }

    @Test("words Python 3 reserves are names in Python 2 code")
    func python2Names() throws {
        let tree = try Self.python2("async = False\nx = y.True\nawait(x)\nprint x\n").root.sexpr
        #expect(tree.contains("(assign (name async) (false))"), "\(tree)")
        #expect(tree.contains("(attribute True (name y))"), "\(tree)")
        #expect(tree.contains("(call (name await) (name x))"), "\(tree)")
    }

    @Test("the print call keeps the statement's range, its callee the keyword's")
    func printRange() throws {
        let module = try Self.python2("def f(r):\n    print 'GET ', r.uri\n")
        let call = try #require(module.root.preorder.first { $0.kind == .call })
        #expect(call.range.start.line == 2 && call.range.start.column == 5)
        #expect(call.range.end.column == 24)
        #expect(call.children[0].text == "print" && call.children[0].range.end.column == 10)
    }

    @Test(
        "Python 3 files parse as before: the dialect is never tried on them",
        arguments: ["print >>f, x\n", "print(x)\n", "exec(code)\n", "x = a if b else c\n", "print\n"])
    func python3Unchanged(source: String) throws {
        let module = try Self.python2(source)
        #expect(module.dialect == .python3)
        #expect(module.python3Failure == nil)
        #expect(module.root == (try PythonParser.parseModule(source: source, fileName: "old.py")).root)
    }

    @Test(
        "Python 2 forms are named as Python 2 by the Python 3 grammar",
        arguments: [
            "try:\n    pass\nexcept E, e as x:\n    pass\n", "raise E, 'm'\n", "x = 10L\n", "x = 0x1fl\n",
            "s = ur'x'\n", "def f(a, (b, c)): pass\n", "f = lambda (a, b): a\n",
        ])
    func python3NamesPython2(source: String) throws {
        #expect(PyTest.error(source)?.code == .python2Syntax)
    }

    @Test(
        "broken Python 2 keeps the Python 3 error, naming the file; nothing crashes",
        arguments: [
            "x = `y\n", "x = `y`` \n", "print )\n", "print if\n", "print >>\n", "print x y\n", "exec code in g,\n",
            "exec code in\n", "raise E,\n", "except E, e:\n", "def f((a, 1)): pass\n", "def f(()): pass\n",
            "x = 0779\n", "print " + String(repeating: "`", count: 5000) + "\n",
            "print " + String(repeating: "(", count: 300) + String(repeating: ")", count: 300) + "\n",
            "def f(" + String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300) + "): pass\n",
            "x = " + String(repeating: "`", count: 400) + "a" + String(repeating: "`", count: 400) + "\n",
        ])
    func hostile(source: String) throws {
        do {
            _ = try Self.python2(source)
            Issue.record("parsed: \(source.prefix(40))")
        } catch let error as PythonSyntaxError {
            #expect(error.file == "old.py")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a file both grammars refuse reports the Python 3 error")
    func bothFail() throws {
        #expect(throws: PythonSyntaxError.self) { try Self.python2("print 'a'\nx = (\n") }
        do {
            _ = try Self.python2("print 'a'\ndef f(:)\n")
            Issue.record("parsed")
        } catch let error as PythonSyntaxError {
            #expect(error.line == 1 && error.code == .python2Syntax)
        }
    }
}
