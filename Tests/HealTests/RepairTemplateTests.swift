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

    var testDescription: String {
        "\(template.name) on `\(source.split(separator: "\n", omittingEmptySubsequences: false)[line - 1])`"
    }
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
        // A sum ending in a literal moves in the literal: `i + 2` and `i`, never `i + 1 + 1` or `i + 0`.
        TemplateCase(OffByOneTemplate(), "y = xs[i + 1]\n", line: 1, ["line 1: `i + 1` → `i + 2`", "line 1: `i + 1` → `i`"]),
        TemplateCase(
            OffByOneTemplate(), "for _ in range(n - 1):\n    pass\n", line: 1, ["line 1: `n - 1` → `n`", "line 1: `n - 1` → `n - 2`"]),
        TemplateCase(OffByOneTemplate(), "k = n-1\n", line: 1, ["line 1: `n-1` → `n`", "line 1: `n-1` → `n-2`"]),
        TemplateCase(
            OffByOneTemplate(), "ok = i < (a if c else b) + 1\n", line: 1,
            ["line 1: `(a if c else b) + 1` → `(a if c else b)`", "line 1: `(a if c else b) + 1` → `(a if c else b) + 2`"]),
        // `len(xs)` inside the sum is not moved on its own: `len(xs) + 1 - 1` is the sum again.
        TemplateCase(
            OffByOneTemplate(), "last = len(xs) - 1\n", line: 1,
            ["line 1: `len(xs) - 1` → `len(xs)`", "line 1: `len(xs) - 1` → `len(xs) - 2`"]),
        // A sum divided with `//` (ceiling division, rounded midpoints), not the divisor.
        TemplateCase(
            OffByOneTemplate(), "pages = (total + size) // size\n", line: 1,
            ["line 1: `total + size` → `total + size + 1`", "line 1: `total + size` → `total + size - 1`"]),
        TemplateCase(
            OffByOneTemplate(), "mid = (lo + hi) // 2\n", line: 1,
            [
                "line 1: `lo + hi` → `lo + hi + 1`", "line 1: `lo + hi` → `lo + hi - 1`", "line 1: `2` → `3`",
                "line 1: `2` → `1`",
            ]),
        TemplateCase(OffByOneTemplate(), "r = (a - b) % n\n", line: 1, []),
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
            MissingGuardTemplate(), Self.port, line: 3,
            [
                "line 3: guard `if section is None: return None`", "line 3: guard `if section is None: return 0`",
                "line 3: guard `if section is None: return []`", "line 3: guard `if section is None: return \"\"`",
            ]),
        // `config[...]` never gives None: no guard for `section`, and `config` is not used on line 3.
        TemplateCase(
            MissingGuardTemplate(), "def port(config):\n    section = config[\"server\"]\n    return int(section.get(\"port\"))\n",
            line: 3, []),
        TemplateCase(
            MissingGuardTemplate(), "def name(user):\n    return user.name.title()\n", line: 2,
            [
                "line 2: guard `if user is None: return None`", "line 2: guard `if user is None: return 0`",
                "line 2: guard `if user is None: return []`", "line 2: guard `if user is None: return \"\"`",
            ]),
        TemplateCase(
            MissingGuardTemplate(), "def ratio(a, b):\n    return a / b\n", line: 2,
            [
                "line 2: guard `if not b: return None`", "line 2: guard `if not b: return 0`", "line 2: guard `if not b: return []`",
                "line 2: guard `if not b: return \"\"`",
            ]),
        // The function's own literal returns come first; a use that only reads an attribute is a None check.
        TemplateCase(
            MissingGuardTemplate(), "def find(xs, k):\n    if k < 0:\n        return -1\n    return xs.index(k)\n", line: 4,
            [
                "line 4: guard `if xs is None: return -1`", "line 4: guard `if xs is None: return None`",
                "line 4: guard `if xs is None: return 0`", "line 4: guard `if xs is None: return []`",
                "line 4: guard `if not k: return -1`", "line 4: guard `if not k: return None`", "line 4: guard `if not k: return 0`",
                "line 4: guard `if not k: return []`",
            ]),
        // A function that returns no value gets a bare `return`.
        TemplateCase(
            MissingGuardTemplate(), "def log(out, msg):\n    out.write(msg)\n", line: 2,
            ["line 2: guard `if out is None: return`", "line 2: guard `if not msg: return`"]),
        // Locals that may be None: a function of the file that can fall off its end, `re.match`, a `None` default.
        TemplateCase(
            MissingGuardTemplate(), Self.lookup, line: 8,
            [
                "line 8: guard `if item is None: return None`", "line 8: guard `if item is None: return 0`",
                "line 8: guard `if item is None: return []`", "line 8: guard `if item is None: return \"\"`",
            ]),
        TemplateCase(
            MissingGuardTemplate(), "import re\ndef key(s):\n    m = re.match(r\"(\\w+)=\", s)\n    print(m.group(1))\n", line: 4,
            ["line 4: guard `if m is None: return`"]),
        TemplateCase(
            MissingGuardTemplate(), "def first(it):\n    x = next(it, None)\n    for y in x:\n        print(y)\n", line: 3,
            ["line 3: guard `if x is None: return`"]),
        // A loop variable is never guarded, whatever its line does with it.
        TemplateCase(MissingGuardTemplate(), "def g(rows):\n    for row in rows:\n        row.clear()\n", line: 3, []),
        TemplateCase(
            SliceBoundsTemplate(), "head = xs[1:n]\n", line: 1,
            [
                "line 1: `xs[1:n]` → `xs[2:n]`", "line 1: `xs[1:n]` → `xs[0:n]`", "line 1: `xs[1:n]` → `xs[:n]`",
                "line 1: `xs[1:n]` → `xs[1:n + 1]`", "line 1: `xs[1:n]` → `xs[1:n - 1]`", "line 1: `xs[1:n]` → `xs[1:]`",
            ]),
        // An absent start moves in to 1, an absent stop to -1.
        TemplateCase(
            SliceBoundsTemplate(), "tail = xs[:-1]\n", line: 1,
            [
                "line 1: `xs[:-1]` → `xs[:0]`", "line 1: `xs[:-1]` → `xs[:-2]`", "line 1: `xs[:-1]` → `xs[:]`",
                "line 1: `xs[:-1]` → `xs[1:-1]`",
            ]),
        TemplateCase(
            SliceBoundsTemplate(), "rows = lines[:]\n", line: 1, ["line 1: `lines[:]` → `lines[1:]`", "line 1: `lines[:]` → `lines[:-1]`"]),
        TemplateCase(
            SliceBoundsTemplate(), "rest = xs[2:]\n", line: 1,
            ["line 1: `xs[2:]` → `xs[3:]`", "line 1: `xs[2:]` → `xs[1:]`", "line 1: `xs[2:]` → `xs[:]`", "line 1: `xs[2:]` → `xs[2:-1]`"]),
        TemplateCase(
            SliceBoundsTemplate(), "head = a[:i + 1]\n", line: 1,
            [
                "line 1: `a[:i + 1]` → `a[:i + 2]`", "line 1: `a[:i + 1]` → `a[:i]`", "line 1: `a[:i + 1]` → `a[:]`",
                "line 1: `a[:i + 1]` → `a[1:i + 1]`",
            ]),
        TemplateCase(
            SliceBoundsTemplate(), "y = (f(x))[ : ]\n", line: 1,
            ["line 1: `(f(x))[ : ]` → `(f(x))[ 1: ]`", "line 1: `(f(x))[ : ]` → `(f(x))[ :-1 ]`"]),
        // A step leaves absent bounds alone: `xs[1::-1]` is no near miss of a reversal.
        TemplateCase(SliceBoundsTemplate(), "r = xs[::-1]\n", line: 1, []),
        TemplateCase(InitialValueTemplate(), "best = float('inf')\n", line: 1, ["line 1: `float('inf')` → `-float('inf')`"]),
        TemplateCase(InitialValueTemplate(), "worst = -float(\"inf\")\n", line: 1, ["line 1: `-float(\"inf\")` → `float(\"inf\")`"]),
        TemplateCase(
            InitialValueTemplate(), "lo, hi, seen = 0, 1, False\n", line: 1,
            ["line 1: `0` → `1`", "line 1: `1` → `0`", "line 1: `False` → `True`"]),
        TemplateCase(InitialValueTemplate(), "items: list = []\n", line: 1, ["line 1: `[]` → `None`", "line 1: `[]` → `\"\"`"]),
        TemplateCase(
            InitialValueTemplate(), "def f(x, acc=None):\n    pass\n", line: 1, ["line 1: `None` → `[]`", "line 1: `None` → `\"\"`"]),
        TemplateCase(InitialValueTemplate(), "name = ''\nn = 2\n", line: 1, ["line 1: `''` → `[]`", "line 1: `''` → `None`"]),
        // Programs judged by what they print.
        TemplateCase(DeleteOutputTemplate(), "x = 1\nprint(x, 'debug')\nprint(x)\n", line: 2, ["line 2: delete `print(x, 'debug')`"]),
        TemplateCase(DeleteOutputTemplate(), "if a: print(a)\n", line: 1, []),
        TemplateCase(DeleteOutputTemplate(), "print(a); b = 1\n", line: 1, []),
        TemplateCase(DeleteOutputTemplate(), "items.append(x)\n", line: 1, []),
        TemplateCase(PrintExpressionTemplate(), "a = [1, 2]\na[a[0]]\n", line: 2, ["line 2: `a[a[0]]` → `print(a[a[0]])`"]),
        TemplateCase(PrintExpressionTemplate(), "main()\n", line: 1, []),
        TemplateCase(
            StringCaseTemplate(), "print('NO')\n", line: 1, ["line 1: `'NO'` → `'No'`", "line 1: `'NO'` → `'no'`"]),
        TemplateCase(
            StringCaseTemplate(), "say(\"yes\", f'{x}')\n", line: 1, ["line 1: `\"yes\"` → `\"Yes\"`", "line 1: `\"yes\"` → `\"YES\"`"]),
        TemplateCase(PrintUnpackedTemplate(), "print(A)\n", line: 1, ["line 1: `A` → `*A`"]),
        TemplateCase(PrintUnpackedTemplate(), "print('x', A)\nprint(3)\n", line: 1, []),
        // Scripts: top-level code has its variables in the module.
        TemplateCase(ReplaceVariableTemplate(), "n = 3\nx = 1\ny = n\n", line: 3, ["line 3: `n` → `x`"]),
        TemplateCase(
            AugmentedAssignmentTemplate(), "x = 1\nx *= 2+1\n", line: 2, ["line 2: `x *= 2+1` → `x = x * 2+1`"]),
        TemplateCase(AugmentedAssignmentTemplate(), "s = 0\ns -= a + b\n", line: 2, ["line 2: `s -= a + b` → `s = s - a + b`"]),
        // Writing these out changes nothing: `x += a + b`, `x *= a * b`, `x *= a ** 2`.
        TemplateCase(AugmentedAssignmentTemplate(), "x += a + b\n", line: 1, []),
        TemplateCase(AugmentedAssignmentTemplate(), "x *= a * b\n", line: 1, []),
        TemplateCase(AugmentedAssignmentTemplate(), "x *= a ** 2\n", line: 1, []),
        TemplateCase(
            LiteralToVariableTemplate(), "n = int(input())\nfor i in range(10):\n    pass\n", line: 2,
            ["line 2: `10` → `n`"]),
        TemplateCase(
            LiteralToVariableTemplate(), "def f(dp, m):\n    dp[0][-1] = 1\n", line: 2,
            [
                "line 2: `0` → `m`", "line 2: `0` → `dp`", "line 2: `-1` → `m`", "line 2: `-1` → `dp`", "line 2: `1` → `m`",
                "line 2: `1` → `dp`",
            ]),
        // A name bound only below the line is not an alternative.
        TemplateCase(LiteralToVariableTemplate(), "x = 1\nn = 2\n", line: 1, []),
        TemplateCase(
            NearbyExpressionTemplate(), "for i in range(n):\n    if A[i] > A[i + 1]:\n        x = i\n", line: 3,
            ["line 3: `i` → `A[i]`", "line 3: `i` → `A[i + 1]`"]),
        TemplateCase(
            NearbyExpressionTemplate(), "for i in range(a):\n  if L[i] <= B:\n    count += B\n", line: 3,
            ["line 3: `count` → `L[i]`", "line 3: `B` → `L[i]`"]),
        TemplateCase(NearbyExpressionTemplate(), "x = A[1:2]\ny = x\n", line: 2, []),
        TemplateCase(BreakToExitTemplate(), "while a:\n    print(1)\n    break\n", line: 3, ["line 3: `break` → `exit()`"]),
        TemplateCase(BreakToExitTemplate(), "def f():\n    while a:\n        break\n", line: 3, []),
        TemplateCase(ArithmeticOperatorTemplate(), "print(n-998244353)\n", line: 1, ["line 1: `-` → `+`", "line 1: `-` → `%`"]),
        TemplateCase(ConversionTemplate(), "r, = read(float)\n", line: 1, ["line 1: `float` → `int`", "line 1: `float` → `str`"]),
        TemplateCase(ConversionTemplate(), "n = int(s) + len(t)\n", line: 1, ["line 1: `int` → `float`", "line 1: `int` → `str`"]),
        TemplateCase(
            SwapStatementsTemplate(), "for x in A:\n    total += y\n    y = x * 2\n", line: 2,
            ["line 2: `total += y y = x * 2` → `y = x * 2 total += y`"]),
        // Statements that share no name and do not both call commute; a compound one does not move.
        TemplateCase(SwapStatementsTemplate(), "a = 1\nb = 2\n", line: 1, []),
        TemplateCase(SwapStatementsTemplate(), "x = f()\nif x:\n    y = x\n", line: 1, []),
        TemplateCase(SwapStatementsTemplate(), "x = 1; y = x\nz = y\n", line: 2, []),
    ]

    static let clamp = """
        def clamp(x, lo, hi):
            if x > hi:
                return lo
            return x

        """

    static let port = """
        def port(config):
            section = config.get("server")
            return int(section.get("port", 80))

        """

    static let lookup = """
        def lookup(d, k):
            if k in d:
                return d[k]


        def size(d, k):
            item = lookup(d, k)
            return len(item)

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
        #expect(
            made.allSatisfy {
                $0.template == example.template.name && $0.score == example.template.prior * RepairGenerator.rankWeight($0.rank)
            })
    }

    @Test("a literal written twice on a line also moves in both places at once")
    func repeatedLiteral() throws {
        let made = try repairs(OffByOneTemplate(), "print(2002*2002-s)\n", line: 1).compactMap(\.change.after)
        #expect(made.contains("print(2003*2003-s)\n") && made.contains("print(2001*2001-s)\n"))
        #expect(made.contains("print(2003*2002-s)\n") && made.count == 6)
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
        let optional = try repairs(MissingGuardTemplate(), Self.port, line: 3)
        let none = try #require(optional.first { $0.description == "line 3: guard `if section is None: return None`" })
        #expect(
            none.change.after
                == Self.port.replacingOccurrences(
                    of: "    return int(", with: "    if section is None:\n        return None\n    return int("))
        #expect(none.rank == 0)
        let noNewline = try repairs(MissingReturnTemplate(), "def f(a):\n    b = a", line: 2)
        #expect(noNewline.map(\.change.after) == ["def f(a):\n    b = a\n    return a\n", "def f(a):\n    b = a\n    return b\n"])
    }

    @Test("variable replacements are ranked: same kind, not on the line yet, used closest above, first seen")
    func replacementRanks() throws {
        let source = """
            def f(items, first, last):
                total = 0
                for item in items:
                    total += item
                return total - first

            def g(rows, cols, key):
                index = {}
                for row in rows:
                    index[key] = row
                return index[key]

            """
        func ranked(_ line: Int, _ name: String) throws -> [String] {
            let made = try repairs(ReplaceVariableTemplate(), source, line: line)
            let prefix = "line \(line): `\(name)` → "
            let edits = made.filter { $0.description.hasPrefix(prefix) }.sorted { $0.rank < $1.rank }
            #expect(edits.map(\.rank) == Array(edits.indices))
            return edits.map { String($0.description.dropFirst(prefix.count)) }
        }
        // `items` is iterated, a container: last. `total` is already on the line.
        #expect(try ranked(5, "first") == ["`item`", "`last`", "`total`", "`items`"])
        #expect(try ranked(5, "total") == ["`item`", "`last`", "`first`", "`items`"])
        // A subscripted name is replaced by another container first.
        #expect(try ranked(11, "index") == ["`rows`", "`row`", "`cols`", "`key`"])
        #expect(try ranked(11, "key") == ["`row`", "`cols`", "`rows`", "`index`"])
    }
}
