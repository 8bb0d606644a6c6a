import Findings
import Foundation
import ScanCore
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

    /// Issue 77: generated code found by its content is one more kind in the one summary, with
    /// the signals that matched; the secrets scan still reads it, and turning the defaults off
    /// analyses it.
    @Test func generatedCodeIsAKindOfItsOwnAndSecretsAreStillSearched() throws {
        let key = "var awsKey = \"\(SecretsCoverageTests.aws)\";\n"
        let root = try SecretsCoverageTests.tree([
            "app.py": "print(1)\n", "static/js/libs/chartish.min.js": GeneratedCodeSamples.minifiedLibrary,
            "static/js/main.js": GeneratedCodeSamples.webpackDevelopmentBundle + key,
        ])
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = try SecretsCoverageTests.scan(root)
        #expect(
            report.defaultExclusions == [
                DefaultExclusion(
                    kind: .generated, files: 2, patterns: ["minified", "source map", "bundler runtime", "library banner"],
                    signalsByFile: [
                        "static/js/libs/chartish.min.js": ["minified", "source map", "library banner"],
                        "static/js/main.js": ["bundler runtime"],
                    ])
            ])
        #expect(
            report.defaultExclusionSummary
                == "2 files left out of code analysis by the default ignores: 2 generated or vendored code (minified, "
                + "source map, bundler runtime, library banner); secrets are still searched in them "
                + "(--no-default-excludes analyses them)")
        #expect(report.filesScanned == 1)
        #expect(report.findings.compactMap(\.location.file) == ["static/js/main.js"], "\(report.findings)")

        var config = ScanConfig()
        config.defaultExcludes = false
        let all = try ScanRunner(scanners: [SecretsScanner()]).run(ScanRequest(root: root, config: config), context: ScanContext())
        #expect(all.report.defaultExclusions.isEmpty && all.report.filesScanned == 3)
    }
}
