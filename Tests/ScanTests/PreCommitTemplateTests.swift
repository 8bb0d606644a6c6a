import Foundation
import SAST
import Languages
import Testing

@testable import Scan

/// The hook `sentinel init` writes and the repository's `.pre-commit-hooks.yaml` pass every file
/// the scan reads (issue 75: no JavaScript or TypeScript file was ever staged for it). The pattern
/// is evaluated here with ICU's engine; PreCommitHookCLITests runs Python's `re`, as pre-commit does.
@Suite struct PreCommitTemplateTests {
    /// The repository's root, found from this file.
    static func packageRoot(filePath: String = #filePath) -> URL {
        URL(fileURLWithPath: filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `files:` pattern of the shipped `.pre-commit-hooks.yaml` (one plain scalar line).
    static func shippedPattern() throws -> String {
        let text = try String(contentsOf: packageRoot().appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("  files: ") })
        return String(line.dropFirst("  files: ".count))
    }

    /// The patterns the test holds to: the template's and the shipped file's.
    static func patterns() throws -> [(String, NSRegularExpression)] {
        try [("PreCommitTemplate.files", PreCommitTemplate.files), (".pre-commit-hooks.yaml", shippedPattern())].map {
            ($0.0, try NSRegularExpression(pattern: $0.1))
        }
    }

    static func matches(_ pattern: NSRegularExpression, _ path: String) -> Bool {
        pattern.firstMatch(in: path, range: NSRange(path.startIndex..., in: path)) != nil
    }

    @Test func theShippedHookIsTheOneInitWrites() throws {
        #expect(try Self.shippedPattern() == PreCommitTemplate.files)
        #expect(PreCommitTemplate.text.contains("\n        files: \(PreCommitTemplate.files)\n"))
        let guide = try String(contentsOf: Self.packageRoot().appendingPathComponent("docs/ci.md"), encoding: .utf8)
        #expect(guide.contains("        files: \(PreCommitTemplate.files)\n"), "docs/ci.md shows another pattern")
    }

    /// Every extension SourceLanguage gives a language to is staged. SourceLanguage has no list of
    /// all its extensions, so it is asked about every extension of a broad set: the engine's own
    /// lists, the languages the scan names as unanalysed, common source extensions, and those of
    /// every file under the repository's fixtures and examples.
    @Test func everyExtensionSourceLanguageKnowsIsStaged() throws {
        var candidates = SourceLanguage.javaScriptFamilyExtensions.union(TemplateFiles.extensions)
        candidates.formUnion(LanguageCoverage.unanalysedLanguages.flatMap(\.extensions))
        candidates.formUnion([
            "py", "pyw", "pyi", "pyx", "pxd", "ipynb", "js", "es6", "coffee", "ts", "d.ts", "astro", "mdx", "marko",
            "html", "erb", "hbs", "ejs", "pug", "sh", "bash", "lua", "pl", "r", "dart", "m", "ex", "exs", "json", "yaml",
        ])
        let root = Self.packageRoot()
        for directory in ["Tests/Fixtures", "examples"] {
            let walker = FileManager.default.enumerator(atPath: root.appendingPathComponent(directory).path)
            while let path = walker?.nextObject() as? String {
                let name = (path as NSString).lastPathComponent
                if let dot = name.lastIndex(of: "."), dot != name.startIndex { candidates.insert(String(name[name.index(after: dot)...])) }
            }
        }
        let known = candidates.filter { SourceLanguage(fileName: "app.\($0)") != nil }
        #expect(known.isSuperset(of: SourceLanguage.javaScriptFamilyExtensions.union(["py", "pyw", "ipynb"])))
        for (name, pattern) in try Self.patterns() {
            let missed = (known.union(TemplateFiles.extensions)).sorted().filter { ext in
                !Self.matches(pattern, "app.\(ext)") || !Self.matches(pattern, "web/src/app.\(ext)")
            }
            #expect(missed.isEmpty, "\(name) does not stage: \(missed)")
        }
    }

    @Test func lockfilesManifestsAndEnvFilesAreStaged() throws {
        let read = [
            "pyproject.toml", "poetry.lock", "uv.lock", "pdm.lock", "Pipfile.lock", "requirements.txt", "requirements-dev.in",
            "dev-requirements.txt", "test_requirements.txt", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock",
            "pnpm-lock.yaml", "bun.lock", "Cargo.lock", "go.mod", "go.sum", "Gemfile.lock", "composer.lock", "Package.resolved",
        ]
        // Each name is one the dependency scan reads: the list checks the pattern, not itself.
        #expect(read.filter { !DependencyScanner.reads($0, root: ".") }.isEmpty)
        let staged = read + read.map { "services/api/" + $0 } + ["requirements/base.txt", ".env", "deploy/.env.production"]
        let ignored = [
            "README.md", "setup.cfg", "Cargo.toml", "package.json", "notes.txt", "xrequirements.txt", "pyproject.toml.bak",
            "docs/requirements/notes.md", "envrc", "app.pyc",
        ]
        for (name, pattern) in try Self.patterns() {
            #expect(staged.filter { !Self.matches(pattern, $0) }.isEmpty, "\(name)")
            #expect(ignored.filter { Self.matches(pattern, $0) }.isEmpty, "\(name)")
        }
    }
}
