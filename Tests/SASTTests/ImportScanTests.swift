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
}
