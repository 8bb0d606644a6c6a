import Testing

@testable import SAST

/// The text pre-pass that finds what a file imports before it is parsed (project summaries).
@Suite struct ImportScanTests {
    @Test func importsOnOneLineAndAcrossParenthesesAreFound() {
        let text = """
            import os, helpers.utils as u
              from .sibling import clean, quote as q  # trailing comment
            from pkg.sub import (
                first,
                second,
            )
            x = "from nowhere import nothing" if True else None
            \tfrom tabbed import name
            """
        let found = ImportScan.imports(in: text).map { "\($0.module):\($0.name)" }
        #expect(
            found == [
                "os:*", "helpers.utils:*", ".sibling:clean", ".sibling:quote", "pkg.sub:first", "pkg.sub:second",
                "tabbed:name",
            ])
    }

    @Test func textWithoutImportsAndNonASCIIIsHarmless() {
        #expect(ImportScan.imports(in: "").isEmpty)
        #expect(ImportScan.imports(in: "é = 'ünïcode'\nfromage = 1\nimported = 2\n").isEmpty)
        #expect(ImportScan.imports(in: "from ünï import ça").map(\.name) == ["ça"])
    }

    /// Statements of every shape, with the imports found (`module:name`).
    @Test(arguments: [
        ("from x import (a,  # first\n  b, # second\n c)", ["x:a", "x:b", "x:c"]),
        ("from x import (a,\n b) # (\nimport y", ["x:a", "x:b", "y:*"]),
        ("import a,,b", ["a:*", "b:*"]),
        ("from m import a as b, c as d", ["m:a", "m:c"]),
        ("from m import ,a", ["m:a"]),
        ("import (a)", ["a:*"]),
        ("from a import b#c", ["a:b"]),
        ("from ..p.q import r, *", ["..p.q:r", "..p.q:*"]),
        ("from a b import c", []),
        ("from x import a, \\\n    b  # c\r\nimport y", ["x:a", "x:b", "y:*"]),
        ("from x import \\\n (a,\n b)", ["x:a", "x:b"]),
        ("import a\\\n", ["a:*"]),
    ])
    func statementShapes(text: String, expected: [String]) {
        #expect(ImportScan.imports(in: text).map { "\($0.module):\($0.name)" } == expected)
    }
}
