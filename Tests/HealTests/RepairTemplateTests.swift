import Heal
import Testing

/// One template on one line of a small input, and the exact changes it must propose.
struct TemplateCase: Sendable, CustomTestStringConvertible {
    let template: any RepairTemplate
    let source: String
    let line: Int
    let expected: Set<String>

    init(_ template: any RepairTemplate, _ source: String, line: Int, _ expected: Set<String>) {
        self.template = template
        self.source = source
        self.line = line
        self.expected = expected
    }

    var testDescription: String { "\(template.name) on `\(source.split(separator: "\n")[line - 1])`" }
}

/// Every candidate `template` makes at `line` of `source` (a file `m.py`, suspiciousness 1).
func repairs(_ template: any RepairTemplate, _ source: String, line: Int) throws -> [RepairCandidate] {
    try RepairGenerator(templates: [template]).candidates(
        path: "m.py", source: source, suspicious: [SuspiciousLine(file: "m.py", line: line, score: 1)])
}

@Suite("Repair templates")
struct RepairTemplateTests {
    static let cases: [TemplateCase] = [
        TemplateCase(
            ComparisonOperatorTemplate(), "def f(a, b):\n    return a < b\n", line: 2, ["line 2: `<` → `<=`", "line 2: `<` → `>`"]),
        TemplateCase(
            ComparisonOperatorTemplate(), "ok = 0 <= i<n\n", line: 1,
            ["line 1: `<=` → `<`", "line 1: `<=` → `>=`", "line 1: `<` → `<=`", "line 1: `<` → `>`"]),
        TemplateCase(ComparisonOperatorTemplate(), "if (x) is  not (None):\n    pass\n", line: 1, ["line 1: `is  not` → `is`"]),
        TemplateCase(
            ComparisonOperatorTemplate(), "y = k not in d or a == b\n", line: 1, ["line 1: `not in` → `in`", "line 1: `==` → `!=`"]),
        TemplateCase(ComparisonOperatorTemplate(), "y = a >= b\nz = a > b\n", line: 2, ["line 2: `>` → `>=`", "line 2: `>` → `<`"]),
        TemplateCase(
            ArithmeticOperatorTemplate(), "t = a + b * c % d\n", line: 1,
            ["line 1: `+` → `-`", "line 1: `*` → `/`", "line 1: `%` → `//`"]),
        TemplateCase(ArithmeticOperatorTemplate(), "x //= 2\ny = x / 2\n", line: 1, ["line 1: `//=` → `/=`", "line 1: `//=` → `%=`"]),
        TemplateCase(ArithmeticOperatorTemplate(), "s = \"%s\" % x + name\n", line: 1, []),
        TemplateCase(
            OffByOneTemplate(), "for i in range(n):\n    pass\n", line: 1, ["line 1: `n` → `n + 1`", "line 1: `n` → `n - 1`"]),
        TemplateCase(
            OffByOneTemplate(), "last = xs[len(xs)]\n", line: 1,
            ["line 1: `len(xs)` → `len(xs) + 1`", "line 1: `len(xs)` → `len(xs) - 1`"]),
        TemplateCase(OffByOneTemplate(), "x = -1\n", line: 1, ["line 1: `-1` → `0`", "line 1: `-1` → `-2`"]),
        TemplateCase(
            OffByOneTemplate(), "while i < a or b:\n    i += 2\n", line: 1,
            ["line 1: `a` → `a + 1`", "line 1: `a` → `a - 1`"]),
        TemplateCase(
            OffByOneTemplate(), "y = xs[i + 1]\n", line: 1,
            ["line 1: `i + 1` → `i + 1 + 1`", "line 1: `i + 1` → `i + 1 - 1`", "line 1: `1` → `2`", "line 1: `1` → `0`"]),
        TemplateCase(
            OffByOneTemplate(), "ok = n > (a if c else b)\n", line: 1,
            ["line 1: `a if c else b` → `(a if c else b) + 1`", "line 1: `a if c else b` → `(a if c else b) - 1`"]),
        TemplateCase(NegateConditionTemplate(), "if ready:\n    go()\n", line: 1, ["line 1: `ready` → `not ready`"]),
        TemplateCase(
            NegateConditionTemplate(), "while a and b:\n    pass\n", line: 1, ["line 1: `a and b` → `not (a and b)`"]),
        TemplateCase(NegateConditionTemplate(), "if not done:\n    go()\n", line: 1, ["line 1: `not done` → `done`"]),
        TemplateCase(
            NegateConditionTemplate(), "if a:\n    pass\nelif x > 1:\n    pass\n", line: 3, ["line 3: `x > 1` → `not x > 1`"]),
        TemplateCase(NegateConditionTemplate(), "ok = not (a or b)\n", line: 1, ["line 1: `not (a or b)` → `(a or b)`"]),
        TemplateCase(BooleanOperatorTemplate(), "if a and b:\n    pass\n", line: 1, ["line 1: `a and b` → `a or b`"]),
        TemplateCase(
            BooleanOperatorTemplate(), "x = a or b or c\n", line: 1,
            ["line 1: `a or b or c` → `a and b or c`", "line 1: `a or b or c` → `a or b and c`", "line 1: `a or b or c` → `a and b and c`"]),
        TemplateCase(
            DropConditionTemplate(), "if a and b and c:\n    pass\n", line: 1,
            ["line 1: `a and b and c` → `b and c`", "line 1: `a and b and c` → `a and c`", "line 1: `a and b and c` → `a and b`"]),
        TemplateCase(
            DropConditionTemplate(), "if (x > 0) or (y):\n    pass\n", line: 1,
            ["line 1: `(x > 0) or (y)` → `(y)`", "line 1: `(x > 0) or (y)` → `(x > 0)`"]),
        TemplateCase(
            SwapArgumentsTemplate(), "r = divide(total, count, key=k)\n", line: 1,
            ["line 1: `divide(total, count, key=k)` → `divide(count, total, key=k)`"]),
        TemplateCase(
            SwapArgumentsTemplate(), "r = f(a, b, c)\n", line: 1,
            ["line 1: `f(a, b, c)` → `f(b, a, c)`", "line 1: `f(a, b, c)` → `f(c, b, a)`", "line 1: `f(a, b, c)` → `f(a, c, b)`"]),
        TemplateCase(ReplaceVariableTemplate(), Self.clamp, line: 3, ["line 3: `lo` → `x`", "line 3: `lo` → `hi`"]),
        TemplateCase(
            ReplaceVariableTemplate(), "def f(self, a):\n    b = a\n    b = self.g(b)\n", line: 3, ["line 3: `b` → `a`"]),
        TemplateCase(
            ReturnValueTemplate(), Self.clamp, line: 3, ["line 3: `return lo` → `return x`", "line 3: `return lo` → `return hi`"]),
        TemplateCase(
            ReturnValueTemplate(), "def f(a):\n    b = a\n    return\n", line: 3,
            ["line 3: `return` → `return a`", "line 3: `return` → `return b`"]),
        TemplateCase(
            MissingReturnTemplate(), Self.total, line: 4,
            ["line 5: add `return xs`", "line 5: add `return s`", "line 5: add `return x`"]),
        TemplateCase(MissingReturnTemplate(), "def g(xs):\n    for x in xs:\n        yield x\n", line: 3, []),
        TemplateCase(
            MissingGuardTemplate(), "def mean(xs, n):\n    return sum(xs) / len(xs)\n", line: 2,
            [
                "line 2: guard `if not xs: return None`", "line 2: guard `if not xs: return 0`",
                "line 2: guard `if not xs: return []`", "line 2: guard `if not xs: return \"\"`",
            ]),
        TemplateCase(
            SliceBoundsTemplate(), "head = xs[1:n]\n", line: 1,
            [
                "line 1: `xs[1:n]` → `xs[2:n]`", "line 1: `xs[1:n]` → `xs[0:n]`", "line 1: `xs[1:n]` → `xs[:n]`",
                "line 1: `xs[1:n]` → `xs[1:n + 1]`", "line 1: `xs[1:n]` → `xs[1:n - 1]`", "line 1: `xs[1:n]` → `xs[1:]`",
            ]),
        TemplateCase(
            SliceBoundsTemplate(), "tail = xs[:-1]\n", line: 1,
            ["line 1: `xs[:-1]` → `xs[:0]`", "line 1: `xs[:-1]` → `xs[:-2]`", "line 1: `xs[:-1]` → `xs[:]`"]),
        TemplateCase(InitialValueTemplate(), "best = float('inf')\n", line: 1, ["line 1: `float('inf')` → `-float('inf')`"]),
        TemplateCase(InitialValueTemplate(), "worst = -float(\"inf\")\n", line: 1, ["line 1: `-float(\"inf\")` → `float(\"inf\")`"]),
        TemplateCase(
            InitialValueTemplate(), "lo, hi, seen = 0, 1, False\n", line: 1,
            ["line 1: `0` → `1`", "line 1: `1` → `0`", "line 1: `False` → `True`"]),
        TemplateCase(InitialValueTemplate(), "items: list = []\n", line: 1, ["line 1: `[]` → `None`", "line 1: `[]` → `\"\"`"]),
        TemplateCase(
            InitialValueTemplate(), "def f(x, acc=None):\n    pass\n", line: 1, ["line 1: `None` → `[]`", "line 1: `None` → `\"\"`"]),
        TemplateCase(InitialValueTemplate(), "name = ''\nn = 2\n", line: 1, ["line 1: `''` → `[]`", "line 1: `''` → `None`"]),
    ]

    static let clamp = """
        def clamp(x, lo, hi):
            if x > hi:
                return lo
            return x

        """

    static let total = """
        def total(xs):
            s = 0
            for x in xs:
                s += x
        # a comment after the body

        def other():
            pass

        """

    @Test("each template proposes exactly the expected changes", arguments: cases)
    func proposes(_ example: TemplateCase) throws {
        let made = try repairs(example.template, example.source, line: example.line)
        #expect(Set(made.map(\.description)) == example.expected)
        #expect(made.count == example.expected.count)
        #expect(made.allSatisfy { $0.template == example.template.name && $0.score == example.template.prior })
    }

    @Test("inserted code takes the file's indentation and goes where it belongs")
    func insertions() throws {
        let returns = try repairs(MissingReturnTemplate(), Self.total, line: 4)
        let withS = try #require(returns.first { $0.description == "line 5: add `return s`" })
        #expect(
            withS.change.after
                == Self.total.replacingOccurrences(of: "        s += x\n", with: "        s += x\n    return s\n"))
        let tabbed = "def mean(xs):\n\tif xs:\n\t\treturn sum(xs) / len(xs)\n"
        let guards = try repairs(MissingGuardTemplate(), tabbed, line: 3)
        let zero = try #require(guards.first { $0.description == "line 3: guard `if not xs: return 0`" })
        #expect(zero.change.after == "def mean(xs):\n\tif xs:\n\t\tif not xs:\n\t\t\treturn 0\n\t\treturn sum(xs) / len(xs)\n")
        let crlf = try repairs(MissingGuardTemplate(), "def mean(xs):\r\n    return sum(xs) / len(xs)\r\n", line: 2)
        #expect(
            crlf.first { $0.description.hasSuffix("return None`") }?.change.after
                == "def mean(xs):\r\n    if not xs:\r\n        return None\r\n    return sum(xs) / len(xs)\r\n")
        let noNewline = try repairs(MissingReturnTemplate(), "def f(a):\n    b = a", line: 2)
        #expect(noNewline.map(\.change.after) == ["def f(a):\n    b = a\n    return a\n", "def f(a):\n    b = a\n    return b\n"])
    }
}
