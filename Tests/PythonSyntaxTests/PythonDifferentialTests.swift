import Foundation
import Testing

@testable import PythonSyntax

/// Tricky snippets, valid and invalid, whose accept/reject verdict must match CPython's `ast.parse`.
@Suite("Python differential")
struct PythonDifferentialTests {
    static let snippets: [String] = [
        "x = 1if y else 2", "0x_1f", "1__0", "1_", "0b102", "0o8", "00", "0_0", "1.e5", "1e+5j", ".5j", "1.__class__",
        "1 .real", "x = [i for i in range(3) if i if not i]", "f(**a, b=1)", "f(*a, b)", "f(a for a in b)",
        "f((a for a in b), c)", "f(a, b for b in c)", "x = *a, *b", "*a, = b", "*a = b", "del (a, b), [c]", "del *a",
        "(a, b) += 1", "a.b += 1", "x: int, y: int = 1, 2", "(x): int = 1", "x.y: int", "lambda: (yield)",
        "lambda x=1, /, y=2, *, z: 0", "lambda *, k: 0", "lambda *: 0", "def f(a, a): pass", "def f(**k, a): pass",
        "def f(a=1, /, b): pass", "def f(a, /, b=1, *c, d, e=2, **f): pass", "class C(*bases, **kw): pass",
        "@x[0].y\ndef f(): pass", "@(yield)\ndef f(): pass", "@a := b\ndef f(): pass", "async def f():\n    [x async for x in y]",
        "async def f():\n    await (yield)", "def f():\n    yield from a, b", "def f():\n    x = yield a, b",
        "with a, (b as c): pass", "with (a as b), c: pass", "with (a) as b: pass", "with (a, b) as c: pass", "with (a as b, c as d): pass",
        "with (open(a) as f, open(b) as g,): pass", "try:\n    pass\nexcept* (A, B) as e:\n    pass", "try:\n    pass\nfinally:\n    pass",
        "try:\n    pass\nelse:\n    pass", "for x, in y: pass", "for (x, y), z in w: pass", "for x in y, z: pass",
        "if x:\n    pass\nelif y:\n    pass\nelif z: pass\nelse: pass", "while (n := f()) > 0: pass", "x = (y := 1)", "x = y := 1",
        "f(x := 1)", "f(a, x := 1, b=2)", "a[x := 1]", "a[b:c, d:e:f, ...]", "a[:, None]", "a[()]", "a[*b, c]", "a[*b]",
        "a[b:=0:1]", "a[1:b:=0]", "a[(b:=0):1]", "{x:=1: 2}", "{(x:=1): 2}", "{*a: 1}", "{1: 2, *a: 3}",
        "match x:\n    case {**rest}: pass", "match x:\n    case [a, *_, b]: pass", "match x:\n    case A.B(c=1) | C(): pass",
        "match x:\n    case 1 | 2 as y if y: pass", "match x:\n    case -1.5 - 2j: pass", "match x:\n    case 'a' 'b': pass",
        "match x:\n    case (1): pass", "match x:\n    case (): pass", "match x:\n    case a, b: pass", "match (x):\n    case _: pass",
        "match x, y:\n    case _: pass", "match x:\n    case {'a': 1, **r, 'b': 2}: pass",
        "match x:\n    case f(): pass\n    case a.b(): pass",
        "match x:\n    case _ as y: pass", "match x:\n    case y as _: pass", "match x:\n    case *a: pass", "match = case = type = _ = 1",
        "match(x).y = 1", "type(x)", "type X = int", "print(1, 2, sep='')", "print >>f, x", "print >>f", "print >> f x", "print x",
        "exec 'x'", "exec('x')",
        "x = `1`", "x <> y", "raise E, 'm'", "except E, e: pass", "u'x' b'y'", "ur'x'", "bu'x'", "Rb'x' bR'x' BR'x'",
        "f'{x!r}' F'{x:>10}' Rf'\\d{x}' fR'{x}'", "f'{x!}'", "f'{x:{y:{z}}}'", "f'{x}}'", "f'{{x}}'", "f'{'a'}'",
        "class A:\n\\\n    pass", "if x:\n  \\\n    y\n  z", "if x:\n  y\n\\\n  z", "x = 1 \\", "x = ''\\",
        "f'{\nx\n!r\n}'", "f'{x!r\n:>10}'", "f'{x! r}'", "f'{x !r}'",
        "f'{x:=5}'", "f'{(x:=5)}'", "f'{lambda x: 1}'", "f'{(lambda x: 1)}'", "f'{x=!r:>10}'", "f'{*a}'", "f'{*a,}'",
        "f'{yield}'", "f'{a if b else c}'", "'\\N{BULLET}'", "b'\\N{BULLET}'", "'''a\n''' '''b'''", "x = '\\\n'",
        "x = 1; ; y = 2", "x = 1;", "; x = 1", "if x: pass; pass", "if x: if y: pass", "class A: x = 1; y = 2",
        "global x, y", "nonlocal x", "def f():\n    global x\n    nonlocal y", "import a.b.c as d", "import a as b.c",
        "from . import a", "from .. import (a, b,)", "from .a import *", "from a import (*)", "from a import b as c, d as e",
        "import *", "assert x, y", "assert (x, y)", "return", "x = yield", "await x", "async with a: pass",
        "async for x in y: pass", "def f() -> (yield): pass", "x: (yield) = 1", "a, b: int", "[a, b]: int",
        "x = not a == b", "x = a not in b is not c", "x = -2 ** -3", "x = ~a ** b", "x = a if b else c if d else e",
        "x = lambda: lambda: 1", "x = [*a, *b]", "x = {**a, 'b': 1, **c}", "x = {*a, *b}", "x = {**a for a in b}",
        "x = [*a for a in b]", "x = (*a)", "x = (*a,)", "x = a, *b, c", "print(*a, **b)", "f(a)(b)[c].d",
        "x = 1_000_000.000_1e1_0j", "x = 0xDEAD_BEEF", "x = 0B1", "x = 0O7", "x = 09.5", "x = 09", "x = 0e0",
        "x = ...", "...", "x = ...[...]", "Ellipsis = ...", "True = 1", "None.x = 1", "x.True", "__debug__ = 1",
        "def f[T](): pass", "class C[T: (int, str), *Ts, **P]: pass", "type A[T] = list[T]",
        "x = 'a' f'{b}' 'c' f'd'", "x = b'a' 'b'", "if True:\n  x\n   y", "if True:\n\tx\n        y",
        "x = (\n  1\n  ,\n  2\n)", "x = [\n]", "def f(\n    a,\n    b,\n):\n    pass", "f(\n    a,\n    *,\n)",
        "def f(*, a=1, b): pass", "def f(a, *, b=1, **c): pass", "def f(a, /): pass", "def f(/): pass", "def f(*a, /): pass",
        "lambda a, /: 0", "lambda: (x for x in y)", "x = (yield)", "x = yield from y", "(yield x) = 1",
        "a if b else c = d", "f() += 1", "[a, b] += 1", "x = (a := 1, b := 2)", "def f(a := 1): pass",
        "async def f():\n    async with a as b, c as d: pass", "class C:\n    async def f(self): pass",
        "with a as b.c, d as e[0]: pass", "for a.b in c: pass", "for f() in c: pass", "with a as f(): pass",
        "x = [a for a in b for c in a if c]", "x = [a for a, in b]", "x = [a for *a, b in c]", "x = {a: b for a, b in c}",
        "x = {a: b, c}", "x = {a, b: c}", "x = {:}", "x = {,}", "x = [,]", "x = (,)", "f(,)", "f(a,,b)", "x = a[,]",
        "try:\n    pass\nexcept A, B:\n    pass", "try:\n    pass\nexcept* A, B.C, D:\n    pass",
        "try:\n    pass\nexcept A, B as e:\n    pass", "try:\n    pass\nexcept A, :\n    pass",
    ]

    /// Python 3.14 syntax (PEP 758: `except A, B:` without parentheses, unless `as` follows).
    static let needs314: Set<String> = [
        "try:\n    pass\nexcept A, B:\n    pass", "try:\n    pass\nexcept* A, B.C, D:\n    pass",
        "try:\n    pass\nexcept A, :\n    pass",
    ]

    /// Python 3.12 syntax (PEP 695 generics and `type`, PEP 701 f-strings): older interpreters reject it.
    static let needs312: Set<String> = [
        "type X = int", "def f[T](): pass", "class C[T: (int, str), *Ts, **P]: pass", "type A[T] = list[T]",
        "f'{'a'}'", "f'{x:{y:{z}}}'", "f'{*a}'", "f'{\nx\n!r\n}'", "f'{x!r\n:>10}'",
    ]

    @Test("accept/reject verdicts match CPython", .enabled(if: PyTest.python3 != nil, "needs python3"))
    func agreesWithCPython() throws {
        let script = """
            import ast, json, sys
            out = [sys.version_info >= (3, 12), sys.version_info >= (3, 14)]
            for s in json.load(sys.stdin):
                try:
                    ast.parse(s)
                    out.append(True)
                except SyntaxError:
                    out.append(False)
            print(json.dumps(out))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(PyTest.python3))
        process.arguments = ["-c", script]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(try JSONEncoder().encode(Self.snippets))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var verdicts = try JSONDecoder().decode([Bool].self, from: data)
        let is312 = verdicts.removeFirst()
        let is314 = verdicts.removeFirst()
        try #require(verdicts.count == Self.snippets.count)
        var disagreements: [String] = []
        for (snippet, cpython) in zip(Self.snippets, verdicts) {
            let error = PyTest.error(snippet + "\n")
            if !is314 && Self.needs314.contains(snippet) {
                #expect(error == nil, "\(snippet) is valid Python 3.14")
                continue
            }
            if !is312 && Self.needs312.contains(snippet) {
                #expect(error == nil, "\(snippet) is valid Python 3.12")
                continue
            }
            if (error == nil) != cpython {
                disagreements.append(
                    "\(snippet.debugDescription): CPython \(cpython ? "accepts" : "rejects"), we \(error.map { "reject (\($0.message))" } ?? "accept")"
                )
            }
        }
        for d in disagreements { print("  disagreement: \(d)") }
        #expect(disagreements.isEmpty)
    }
}
