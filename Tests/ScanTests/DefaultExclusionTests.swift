import Findings
import Foundation
import Testing

@testable import Scan

/// Issue 26: the report says which kinds of files the default ignores left out of code
/// analysis and which patterns matched them, as typed values every format carries.
@Suite struct DefaultExclusionTests {
    @Test func leftOutFilesAreCountedByKindWithTheirPatterns() throws {
        let root = try SecretsCoverageTests.tree([
            "app.py": "print(1)\n", "conftest.py": "x = 1\n", "tests/test_a.py": "x = 1\n", "pkg/test_b.py": "x = 1\n",
            "build/lib/a.py": "x = 1\n", "dist/a.py": "x = 1\n", "node_modules/p/i.js": "x\n",
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try SecretsCoverageTests.scan(root)
        #expect(
            report.defaultExclusions == [
                DefaultExclusion(kind: .tests, files: 3, patterns: ["tests/", "test_*.py", "conftest.py"]),
                DefaultExclusion(kind: .dependencies, files: 1, patterns: ["node_modules/"]),
                DefaultExclusion(kind: .build, files: 2, patterns: ["build/", "dist/"]),
            ])
        #expect(report.excludedByDefault == 6)
        #expect(
            report.defaultExclusionSummary
                == "6 files left out of code analysis by the default ignores: 3 test code (tests/, test_*.py, conftest.py), "
                + "1 dependencies (node_modules/), 2 build output (build/, dist/); secrets are still searched in them "
                + "(--no-default-excludes analyses them)")
    }

    @Test func everyFormatCarriesTheKinds() throws {
        var report = Report(filesScanned: 1)
        report.defaultExclusions = [DefaultExclusion(kind: .build, files: 2, patterns: ["build/"])]
        let json = JSONRenderer().document(report).summary
        #expect(json.defaultExclusions == report.defaultExclusions)
        #expect(json.excludedByDefault == 2)
        let sarif = SARIFRenderer().render(report)
        #expect(sarif.contains("\"defaultExclusions\""), "\(sarif)")
        #expect(sarif.contains("2 build output (build/)"))
        let summary = "2 files left out of code analysis by the default ignores: 2 build output (build/)"
        #expect(TextRenderer().summary(report).contains("; " + summary))
        #expect(HTMLRenderer().render(report).contains(" · " + summary))
    }
}
