import Testing

@testable import PythonSyntax

/// Broken inputs: the error code, line and column are exact, and nothing crashes.
@Suite("Python syntax errors")
struct PythonErrorTests {
    struct Case: Sendable, CustomStringConvertible {
        var source: String
        var code: PythonSyntaxError.Code
        var line: Int
        var column: Int
        var message: String
        var description: String { source }
    }

    static let cases: [Case] = [
        Case(
            source: "print 'hello'\n", code: .python2Syntax, line: 1, column: 1,
            message: "Missing parentheses in call to 'print'"),
        // `print >>f, x` is valid Python 3 (a shift, then a tuple): CPython reports where that fails.
        Case(
            source: "x = 1\nprint >>sys.stderr x\n", code: .unexpectedToken, line: 2, column: 20,
            message: "expected end of statement"),
        Case(source: "exec code in ns\n", code: .python2Syntax, line: 1, column: 1, message: "'exec'"),
        Case(source: "x = 0777\n", code: .python2Syntax, line: 1, column: 5, message: "leading zeros"),
        Case(source: "if a <> b: pass\n", code: .python2Syntax, line: 1, column: 6, message: "'<>'"),
        Case(source: "x = `y`\n", code: .python2Syntax, line: 1, column: 5, message: "backticks"),
        Case(
            source: "try:\n    pass\nexcept E, e as x:\n    pass\n", code: .python2Syntax, line: 3, column: 8,
            message: "multiple exception types must be parenthesized when using 'as'"),
        Case(source: "def f(:)\n", code: .unexpectedToken, line: 1, column: 7, message: "expected a name"),
        Case(source: "def f(:\n", code: .unbalancedBracket, line: 1, column: 6, message: "'(' was never closed"),
        Case(source: "x = (1,\n", code: .unbalancedBracket, line: 1, column: 5, message: "'(' was never closed"),
        Case(source: "x = 1)\n", code: .unbalancedBracket, line: 1, column: 6, message: "unmatched ')'"),
        Case(source: "x = [1, 2)\n", code: .unbalancedBracket, line: 1, column: 10, message: "does not match"),
        Case(
            source: "s = 'abc\n", code: .unterminatedString, line: 1, column: 5, message: "unterminated string literal"),
        Case(
            source: "s = '''abc\n\n", code: .unterminatedString, line: 1, column: 5,
            message: "unterminated triple-quoted"),
        Case(source: "if x:\npass\n", code: .indentation, line: 2, column: 1, message: "expected an indented block"),
        Case(
            source: "if x:\n        a\n    b\n", code: .indentation, line: 3, column: 5,
            message: "unindent does not match"),
        Case(source: "  x = 1\n", code: .indentation, line: 1, column: 3, message: "unexpected indent"),
        Case(source: "x = 1\n    y = 2\n", code: .indentation, line: 2, column: 5, message: "unexpected indent"),
        Case(source: "f() = 1\n", code: .invalidTarget, line: 1, column: 1, message: "cannot assign to function call"),
        Case(source: "a + 1 += 1\n", code: .invalidTarget, line: 1, column: 1, message: "augmented assignment"),
        Case(source: "x, y += 1\n", code: .invalidTarget, line: 1, column: 1, message: "augmented assignment"),
        Case(source: "del f()\n", code: .invalidTarget, line: 1, column: 5, message: "cannot delete function call"),
        Case(
            source: "for 1 in x: pass\n", code: .invalidTarget, line: 1, column: 5, message: "cannot assign to literal"),
        Case(source: "[x for f() in y]\n", code: .invalidTarget, line: 1, column: 8, message: "function call"),
        Case(source: "None = 1\n", code: .invalidTarget, line: 1, column: 1, message: "None"),
        Case(
            source: "f(a=1, b)\n", code: .invalidArguments, line: 1, column: 8,
            message: "positional argument follows keyword argument"),
        Case(
            source: "f(**k, *a)\n", code: .invalidArguments, line: 1, column: 8, message: "iterable argument unpacking"),
        Case(
            source: "f(x for x in y, 1)\n", code: .invalidArguments, line: 1, column: 3,
            message: "Generator expression must be parenthesized"),
        Case(
            source: "def f(a=1, b): pass\n", code: .invalidArguments, line: 1, column: 12,
            message: "non-default argument follows default argument"),
        Case(
            source: "def f(*): pass\n", code: .invalidArguments, line: 1, column: 8,
            message: "named arguments must follow bare *"),
        Case(
            source: "def f(/, a): pass\n", code: .invalidArguments, line: 1, column: 7,
            message: "at least one argument must precede /"),
        Case(source: "a is not not b\n", code: .unexpectedToken, line: 1, column: 10, message: "invalid syntax"),
        Case(source: "x = f'{a'\n", code: .invalidFString, line: 1, column: 9, message: "f-string"),
        Case(source: "x = f'{}'\n", code: .invalidFString, line: 1, column: 7, message: "valid expression required"),
        Case(source: "x = f'a}b'\n", code: .invalidFString, line: 1, column: 8, message: "single '}'"),
        Case(
            source: "x = f'{a!z}'\n", code: .invalidFString, line: 1, column: 9, message: "invalid conversion character"
        ),
        Case(source: "x = f'{a b}'\n", code: .invalidFString, line: 1, column: 10, message: "f-string"),
        Case(source: "x = b'é'\n", code: .unexpectedToken, line: 1, column: 5, message: "ASCII"),
        Case(source: "x = 'a' b'b'\n", code: .unexpectedToken, line: 1, column: 9, message: "cannot mix bytes"),
        Case(source: "x = 1 +\n", code: .unexpectedToken, line: 1, column: 8, message: "expected an expression"),
        Case(source: "def f():\n", code: .indentation, line: 2, column: 1, message: "expected an indented block"),
        Case(source: "x = (1 +", code: .unbalancedBracket, line: 1, column: 5, message: "never closed"),
        Case(source: "x = [1,\n 2,\n", code: .unbalancedBracket, line: 1, column: 5, message: "never closed"),
        Case(source: "if x:\n    y = (", code: .unbalancedBracket, line: 2, column: 9, message: "never closed"),
        Case(source: "x = 1 if", code: .unexpectedToken, line: 1, column: 9, message: "expected an expression"),
        Case(source: "x = $y\n", code: .invalidCharacter, line: 1, column: 5, message: "invalid character"),
        Case(source: "x\u{00A0}= 1\n", code: .invalidCharacter, line: 1, column: 2, message: "U+00A0"),
        Case(source: "price€ = 1\n", code: .invalidCharacter, line: 1, column: 6, message: "U+20AC"),
        Case(source: "x = f'{a # no}'\n", code: .unterminatedString, line: 1, column: 5, message: "unterminated f-string"),
        Case(source: "x = 1\0\n", code: .invalidCharacter, line: 1, column: 6, message: "null bytes"),
        Case(source: "x = 0x\n", code: .invalidNumber, line: 1, column: 5, message: "hexadecimal"),
        Case(source: "x = 1e\n", code: .invalidNumber, line: 1, column: 5, message: "decimal literal"),
        Case(source: "x = a if b\n", code: .unexpectedToken, line: 1, column: 11, message: "'else'"),
        Case(
            source: "class C(x for x in y): pass\n", code: .invalidArguments, line: 1, column: 9,
            message: "generator expression"),
        Case(source: "lambda x: (yield)\nyield = 3\n", code: .invalidTarget, line: 2, column: 1, message: "yield"),
        Case(
            source: "try:\n    pass\n", code: .unexpectedEndOfFile, line: 3, column: 1, message: "'except' or 'finally'"
        ),
        Case(
            source: "try:\n    a\nexcept E:\n    b\nexcept* F:\n    c\n", code: .unexpectedToken, line: 5, column: 1,
            message: "except*"),
        Case(source: "x = \\ y\n", code: .invalidCharacter, line: 1, column: 5, message: "line continuation"),
        Case(source: "@dec\nx = 1\n", code: .unexpectedToken, line: 2, column: 1, message: "'def' or 'class'"),
        Case(
            source: "match x:\n    case 1 + 1: pass\n", code: .unexpectedToken, line: 2, column: 14,
            message: "imaginary"),
    ]

    @Test("error code and position", arguments: cases)
    func error(_ c: Case) throws {
        let e = try #require(PyTest.error(c.source), "expected a syntax error")
        #expect(e.code == c.code, "\(e)")
        if c.message.isEmpty { return }
        #expect(e.line == c.line, "\(e)")
        #expect(e.column == c.column, "\(e)")
        #expect(e.message.contains(c.message), "\(e)")
        #expect(e.description.hasPrefix("t.py:\(e.line):\(e.column): "))
    }

    @Test("invalid UTF-8 is rejected with the line named; a Latin-1 cookie is honoured")
    func encodings() throws {
        let bad: [UInt8] = Array("x = 1\ny = '".utf8) + [0xE9] + Array("'\n".utf8)
        #expect(throws: PythonSyntaxError.self) { try PythonParser.parseModule(bytes: bad, fileName: "e.py") }
        do {
            _ = try PythonParser.parseModule(bytes: bad, fileName: "e.py")
        } catch let e as PythonSyntaxError {
            #expect(e.code == .invalidCharacter && e.line == 2)
        }
        let latin1 = Array("# -*- coding: latin-1 -*-\ny = '".utf8) + [0xE9] + Array("'\n".utf8)
        let m = try PythonParser.parseModule(bytes: latin1, fileName: "l.py")
        #expect(m.root.children[0].children[1].text == "é")
    }

    /// A large generated input, shown by name only.
    struct Deep: Sendable, CustomStringConvertible {
        var name: String
        var source: String
        var description: String { name }
    }

    @Test(
        "nesting beyond the limit is an error, not a stack overflow",
        arguments: zip(
            1...,
            [
                String(repeating: "(", count: 5000) + "x" + String(repeating: ")", count: 5000),
                String(repeating: "[", count: 5000),
                "x = " + String(repeating: "-", count: 100_000) + "1",
                "x = " + String(repeating: "not ", count: 100_000) + "1",
                "x = " + String(repeating: "a if b else ", count: 10_000) + "c",
                "x = " + String(repeating: "lambda: ", count: 10_000) + "c",
                "x = 2" + String(repeating: " ** 2", count: 100_000),
                "x = a" + String(repeating: " + a", count: 100_000),
                "x = a" + String(repeating: ".b", count: 100_000),
                "x = f" + String(repeating: "()", count: 100_000),
                String((0..<300).map { "\(String(repeating: " ", count: $0))if x:\n" }.joined())
                    + String(repeating: " ", count: 300) + "pass\n",
                "x = " + String(repeating: "f'{", count: 50) + "1" + String(repeating: "}'", count: 50),
                "match x:\n    case " + String(repeating: "[", count: 1000) + "]" + String(repeating: "]", count: 999)
                    + ": pass\n",
            ]
        ).map { Deep(name: "deep input #\($0.0)", source: $0.1) })
    func deepNesting(_ deep: Deep) {
        let source = deep.source
        let e = PyTest.error(source)
        #expect(e != nil)
        #expect(
            e?.code == .nestingTooDeep || e?.code == .unbalancedBracket || e?.code == .unterminatedString,
            "\(String(describing: e))")
    }

    @Test("nesting under the limit parses")
    func moderateNesting() throws {
        let source = "x = " + String(repeating: "(", count: 150) + "1" + String(repeating: ")", count: 150) + "\n"
        #expect(try PyTest.module(source) == "(module (assign (name x) (integer 1)))")
        let chain = "x = a" + String(repeating: " + a", count: 1000) + "\n"
        #expect(PyTest.error(chain) == nil)
    }
}
