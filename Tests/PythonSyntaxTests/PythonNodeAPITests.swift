import Foundation
import Testing

@testable import PythonSyntax
import TestSupport

/// The small API the rule engine uses: walks, dotted names, enclosing functions, normalised source.
@Suite("SyntaxNode API")
struct PythonNodeAPITests {
    static let source = """
        import os

        class A:
            def m(self, a, b):
                def inner():
                    return os.path.join(a, b)
                return inner

        async def top():
            await x.y(1)
        value = os.environ["HOME"]

        """

    @Test("pre-order walk visits every node, parents first, and can prune")
    func walk() throws {
        let root = try PythonParser.parseModule(source: Self.source, fileName: "a.py").root
        let kinds = root.preorder.map(\.kind)
        #expect(kinds.first == .module)
        #expect(kinds.filter { $0 == .functionDef }.count == 2)
        #expect(kinds.firstIndex(of: .classDef)! < kinds.firstIndex(of: .functionDef)!)
        var names: [String] = []
        root.walk { n in
            if n.kind == .classDef { return false }
            if n.kind == .name, let t = n.text { names.append(t) }
            return true
        }
        #expect(names == ["x", "value", "os"])
    }

    @Test("dotted names of attribute chains")
    func dottedNames() throws {
        let root = try PythonParser.parseModule(source: Self.source, fileName: "a.py").root
        let calls = root.preorder.filter { $0.kind == .call }
        #expect(calls.map { $0.children[0].dottedName } == ["os.path.join", "x.y"])
        #expect(try PythonParser.parsePattern("f().g").dottedName == nil)
        #expect(try PythonParser.parsePattern("a[0].b").dottedName == nil)
    }

    @Test("call accessors and statement kinds")
    func callAccessors() throws {
        let call = try PythonParser.parsePattern("subprocess.run(cmd, shell=True, check=False)")
        #expect(call.callee?.dottedName == "subprocess.run")
        #expect(call.callArguments.count == 3)
        #expect(call.keywordArgument("shell")?.kind == .true)
        #expect(call.keywordArgument("timeout") == nil)
        #expect(try PythonParser.parsePattern("x").keywordArgument("shell") == nil)
        #expect(SyntaxKind.assign.isStatement && SyntaxKind.match.isStatement)
        #expect(!SyntaxKind.call.isStatement && !SyntaxKind.block.isStatement)
    }

    @Test("enclosing function of a position, qualified by classes and outer functions")
    func enclosingFunction() throws {
        let root = try PythonParser.parseModule(source: Self.source, fileName: "a.py").root
        let join = try #require(root.preorder.first { $0.kind == .call })
        #expect(root.enclosingFunctionName(containing: join.range.start) == "A.m.inner")
        #expect(root.enclosingFunction(containing: join.range.start)?.text == "inner")
        let awaitNode = try #require(root.preorder.first { $0.kind == .await })
        #expect(root.enclosingFunctionName(containing: awaitNode.range.start) == "top")
        let env = try #require(root.preorder.first { $0.kind == .subscript })
        #expect(root.enclosingFunctionName(containing: env.range.start) == nil)
    }

    @Test(
        "normalised source ignores layout, comments and quote style",
        arguments: [
            ("x=foo( a,b ,  # note\n   c)\n", "x = foo(a, b, c)"),
            ("x = 'it' \"s\"", "x = \"its\""),
            (
                "if a :\n\n   y=1 # c\nelif b: pass\nelse :\n   z = [ 1,\n 2 ]",
                "if a:\n    y = 1\nelif b:\n    pass\nelse:\n    z = [1, 2]"
            ),
            ("x = (a + b) * c", "x = (a + b) * c"),
            ("x = a + (b * c)", "x = a + b * c"),
            ("x = (a - b) - (c - d)", "x = a - b - (c - d)"),
            ("x = (2 ** 3) ** 4", "x = (2 ** 3) ** 4"),
            ("x = -(a ** b)", "x = -a ** b"),
            ("x = (-a) ** b", "x = (-a) ** b"),
            ("x = not (a and b)", "x = not (a and b)"),
            ("x = (lambda: 1) if c else d", "x = (lambda: 1) if c else d"),
            ("f'{a!r:>{w}} {{x}}'", "f\"{a!r:>{w}} {{x}}\""),
            (
                "@d\nasync def f(a, /, b=1, *c, d, **e) -> int:\n  return (yield)",
                "@d\nasync def f(a, /, b=1, *c, d, **e) -> int:\n    return (yield)"
            ),
            ("for (i, j) in x: pass", "for (i, j) in x:\n    pass"),
            ("a[1:2, ::3]", "a[1:2, ::3]"),
            ("with open(p) as f, g: pass", "with open(p) as f, g:\n    pass"),
            (
                "try:\n  a\nexcept (E, F) as e:\n  b\nfinally:\n  c",
                "try:\n    a\nexcept (E, F) as e:\n    b\nfinally:\n    c"
            ),
            ("from . import (a as b,\n c)", "from . import a as b, c"),
            ("x = {**a, 'k': [i for i in y if i]}", "x = {**a, \"k\": [i for i in y if i]}"),
            ("f(*args, **kw)", "f(*args, **kw)"),
            ("sum(x for x in y)", "sum(x for x in y)"),
            ("f'{ {a: b}} {(lambda: 1)()} {(lambda: 2)}'", "f\"{ {a: b}} {(lambda: 1)()} {(lambda: 2)}\""),
            ("(a := 10)\nif (n := f()) > 1: pass", "(a := 10)\nif (n := f()) > 1:\n    pass"),
        ])
    func normalizedSource(source: String, expected: String) throws {
        let m = try PythonParser.parseModule(source: source + "\n", fileName: "n.py")
        let only = m.root.children.count == 1 ? m.root.children[0] : m.root
        let node = only.kind == .exprStmt ? only.children[0] : only
        #expect(node.normalizedSource == expected)
    }

    /// A part that is neither an expression, a statement nor a pattern (a decorator, a parameter)
    /// renders as its text: it looped between the pattern and expression renderers until the
    /// stack ran out (found when route facts rendered a decorator node).
    @Test func normalizedSourceOfAPartIsItsText() throws {
        let m = try PythonParser.parseModule(source: "@app.get('/x')\ndef f(a, b=1): pass\n", fileName: "n.py")
        let def = try #require(m.root.children.first)
        let decorators = try #require(def.children.first)
        #expect(decorators.children.map(\.normalizedSource).count == 1)
        #expect(decorators.children[0].children.first?.normalizedSource == #"app.get("/x")"#)
        let parameters = def.children[2].children.filter { $0.kind == .parameter }
        #expect(parameters.map(\.normalizedSource) == ["a", "b"])
    }

    @Test(
        "normalised source reparses to the same tree for every corpus file",
        .needsCorpus("bandit/examples", "semgrep-rules/python"))
    func normalizedSourceRoundTrip() throws {
        var checked = 0
        var mismatches: [String] = []
        for url in PyTest.corpusFiles() {
            guard let data = try? [UInt8](Data(contentsOf: url)),
                let m = try? PythonParser.parseModule(bytes: data, fileName: url.path)
            else { continue }
            checked += 1
            let text = m.root.normalizedSource
            do {
                let again = try PythonParser.parseModule(source: text, fileName: url.path + "#normalized")
                if again.root.sexpr != m.root.sexpr || again.root.normalizedSource != text {
                    mismatches.append(url.path)
                }
            } catch {
                mismatches.append("\(url.path): \(error)")
            }
        }
        for m in mismatches { print("  round-trip mismatch: \(m)") }
        #expect(checked > 400)
        #expect(mismatches.isEmpty)
    }

    @Test("a node is a value: changing a copy leaves the original, equality and hashing are structural")
    func valueSemantics() throws {
        let root = try PythonParser.parseModule(source: "x = f(1)\n", fileName: "a.py").root
        var copy = root
        copy.children[0].children[0].text = "y"
        copy.children[0].range.end.offset += 1
        #expect(root.sexpr == "(module (assign (name x) (call (name f) (integer 1))))")
        #expect(copy.sexpr == "(module (assign (name y) (call (name f) (integer 1))))")
        #expect(copy != root)
        let again = try PythonParser.parseModule(source: "x = f(1)\n", fileName: "b.py").root
        #expect(again == root && again.hashValue == root.hashValue)
        #expect(Set([root, again, copy]).count == 2)
        var renamed = again
        renamed.kind = .block
        renamed.raw = "r"
        #expect(renamed.kind == .block && renamed.raw == "r" && again.kind == .module && again.raw == nil)
    }
}
