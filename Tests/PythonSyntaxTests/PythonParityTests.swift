import Testing

@testable import PythonSyntax

/// Disagreements with CPython 3.12's `ast.parse` found by `bench/parse-parity.sh` on real projects'
/// sources (the file each came from is named), each pinned here.
@Suite("Python parity with CPython")
struct PythonParityTests {
    /// A source CPython accepts and a plainer one it parses to the same tree.
    struct Same: Sendable, CustomStringConvertible {
        var source: String
        var equivalent: String
        var description: String { source.debugDescription }
    }

    static let accepted: [Same] = [
        // CPython's Lib/test/test_print.py, parso's E22.py: Python 2 redirection is a shift and a tuple.
        Same(source: "print >>f, x\n", equivalent: "(print >> f), x\n"),
        Same(source: "print >> sys.stderr, 'x is out of range.'\n", equivalent: "(print >> sys.stderr), 'x is out of range.'\n"),
        Same(source: "print >>f\n", equivalent: "(print >> f)\n"),
        Same(source: "exec >> f\n", equivalent: "(exec >> f)\n"),
        // black's backslash_before_indent.py: a continuation before the indentation. The first `\`
        // after some indentation fixes the level; one at column 0 leaves it to the next line.
        Same(source: "class Plotter:\n\\\n    pass\n", equivalent: "class Plotter:\n    pass\n"),
        Same(source: "class A:\n  \\\n    '''doc'''\n  x = 1\n", equivalent: "class A:\n  '''doc'''\n  x = 1\n"),
        Same(source: "if x:\n\\\n  \\\n    y\n", equivalent: "if x:\n  y\n"),
        Same(source: "if x:\n    a\n\\\n    b\n", equivalent: "if x:\n    a\n    b\n"),
        Same(source: "if x:\n  \\\n\n  y\n", equivalent: "if x:\n  y\n"),
        // black's pep_701.py: line breaks around a conversion, even in a single-quoted f-string.
        Same(source: "f'{\nx\n!r\n}'\n", equivalent: "f'{x!r}'\n"),
        Same(source: "f'{x!r\n:>10}'\n", equivalent: "f'{x!r:>10}'\n"),
        Same(source: "f'{x!r # c\n}'\n", equivalent: "f'{x!r}'\n"),
        Same(source: "f'''{x!r\n}'''\n", equivalent: "f'''{x!r}'''\n"),
        // CPython's test_fstring.py: in a single-quoted f-string a line break ends the format spec.
        Same(source: "f'__{\n    x:d\n}__'\n", equivalent: "f'__{x:d}__'\n"),
        Same(source: "f'{x:>{w}\n}'\n", equivalent: "f'{x:>{w}}'\n"),
        // black's pep_646.py, libcst's pep646.py: a starred index is a one-element tuple, as in CPython's tree.
        Same(source: "a[*b]\n", equivalent: "a[*b,]\n"),
        Same(source: "tuple[*Ts]\n", equivalent: "tuple[(*Ts,)]\n"),
    ]

    @Test("CPython accepts these; the tree is the plain form's", arguments: accepted)
    func accepts(_ c: Same) throws {
        #expect(try PyTest.module(c.source) == PyTest.module(c.equivalent))
    }

    /// A source CPython rejects, and where the parser must report it.
    struct Refused: Sendable, CustomStringConvertible {
        var source: String
        var code: PythonSyntaxError.Code
        var line: Int
        var column: Int
        var description: String { source.debugDescription }
    }

    /// Sources CPython rejects that the parser used to accept (some mined from the projects' test strings).
    static let rejected: [Refused] = [
        // pylint's tokenize_error.py: a continuation that ends the file leaves the line unfinished.
        Refused(source: "x = ''\\\n", code: .unexpectedEndOfFile, line: 1, column: 7),
        Refused(source: "\\\n", code: .unexpectedEndOfFile, line: 1, column: 1),
        Refused(source: "if x:\n  y \\\n", code: .unexpectedEndOfFile, line: 2, column: 5),
        // An unparenthesized walrus is an index, never a slice bound or a dict key; nor is `*a` a key.
        Refused(source: "a[b:=0:1]\n", code: .unexpectedToken, line: 1, column: 7),
        Refused(source: "a[1, b:=0:1]\n", code: .unexpectedToken, line: 1, column: 10),
        Refused(source: "{y:=1: 2 for x in z}\n", code: .unexpectedToken, line: 1, column: 6),
        Refused(source: "{*a: 1}\n", code: .unexpectedToken, line: 1, column: 4),
        // Format specs nest three fields deep at most; after a spec's line break only `}` may come.
        Refused(source: "f'{x:{y:{z:{w}}}}'\n", code: .invalidFString, line: 1, column: 12),
        Refused(source: "f'{x:a\nb}'\n", code: .invalidFString, line: 2, column: 1),
        // Escapes CPython cannot decode (Windows paths such as '\\?\UNC\server' among them).
        Refused(source: "s = '\\x4'\n", code: .invalidEscape, line: 1, column: 6),
        Refused(source: "s = b'\\x'\n", code: .invalidEscape, line: 1, column: 7),
        Refused(source: "s = '\\u12'\n", code: .invalidEscape, line: 1, column: 6),
        Refused(source: "s = '\\\\?\\UNC'\n", code: .invalidEscape, line: 1, column: 9),
        Refused(source: "s = '\\U0011ffff'\n", code: .invalidEscape, line: 1, column: 6),
        Refused(source: "s = '\\N'\n", code: .invalidEscape, line: 1, column: 6),
        Refused(source: "s = '\\N{BULLET'\n", code: .invalidEscape, line: 1, column: 6),
        Refused(source: "s = f'{x}\\N'\n", code: .invalidEscape, line: 1, column: 10),
        Refused(source: "s = '''a\n\\x'''\n", code: .invalidEscape, line: 2, column: 1),
        // A NUL is refused even inside a string literal.
        Refused(source: "s = '''\nab\0'''\n", code: .invalidCharacter, line: 2, column: 3),
    ]

    @Test("CPython rejects these", arguments: rejected)
    func rejects(_ c: Refused) throws {
        let e = try #require(PyTest.error(c.source), "\(c.source.debugDescription) parsed")
        #expect(e.code == c.code && e.line == c.line && e.column == c.column, "\(e)")
    }

    /// Escapes CPython decodes (or, in bytes and raw strings, leaves alone) still parse.
    @Test(
        "valid escapes still parse",
        arguments: ["'\\x41\\u0041\\U00000041'", "b'\\u12\\N'", "r'\\N \\x'", "'\\N{BULLET}'", "'\\777'", "f'\\N{BULLET}{x}'"])
    func validEscapes(_ source: String) {
        #expect(PyTest.error(source + "\n") == nil)
    }
}
