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

    @Test func aliasesAreKeptBesideTheNames() {
        let found = ImportScan.imports(in: "from m import a as b, c\nimport x.y as z, w").map {
            "\($0.module):\($0.name):\($0.alias ?? "-")"
        }
        #expect(found == ["m:a:b", "m:c:-", "x.y:*:z", "w:*:-"])
    }

    @Test func attributesReadOfImportedNamesAreFound() {
        let text = """
            job = Job.create(x)
            Job .run(job); Job.\\
                stop()
            MyJob.skip(); my.Job.other(); JobX.no()
            Job
            """
        #expect(ImportScan.attributes(of: ["Job", "Other"], in: text) == ["Job": ["create", "run", "stop"]])
        #expect(ImportScan.attributes(of: [], in: text).isEmpty)
    }

    /// Another module's object has no known class where it is used: only what is called through
    /// the class's name (or anything of a module taken whole) can read a method's summary.
    @Test func methodsAreExportedOnlyWhenImportersCallThemThroughTheClass() {
        let files = ["jobs.py", "use.py", "whole.py", "other.py"]
        let project = ProjectSummaries(files: files)
        project.noteImports(of: "use.py", text: "from jobs import Job as J\nJ.run(1)\nJ(2).stop()\n")
        project.noteImports(of: "whole.py", text: "from other import *\n")
        #expect(project.mayCall("run", of: "Job", in: "jobs"))
        #expect(!project.mayCall("stop", of: "Job", in: "jobs"))
        #expect(project.mayCall("anything", of: "Thing", in: "other"))
    }
}
