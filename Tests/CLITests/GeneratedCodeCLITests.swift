import Foundation
import Testing
import TestSupport

/// Issue 77: a tree holding a minified vendored library, a hashed build chunk and a long
/// hand-written file. The first two are left out of code analysis and named in the one
/// summary, the secret in the chunk is still found, and `--no-default-excludes` analyses all.
@Suite struct GeneratedCodeCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = home
        return environment
    }

    /// The DOM sink each file holds: the hash of the page's URL written as HTML.
    static let sink = "document.body.insertAdjacentHTML('beforeend',decodeURIComponent(location.hash.slice(1)))"
    static let key = "AKIA" + "Q3EGZT7RKMXJ4HVN"

    static func minified(_ bytes: Int) -> String {
        let statement = "function q(a,b){return a.map(function(c){return c*b})}var r=q([1,2,3],2);if(r.length>2){r.pop()}"
        return String(repeating: statement, count: bytes / statement.count + 1)
    }

    static var handWritten: String {
        (0..<600).map { i in
            "// Formats row \(i) of the table.\nfunction row\(i)(cells) {\n  const joined = cells.join(', ');\n  return '[' + joined + ']';\n}\n\n"
        }.joined() + "function showFragment() {\n  \(sink);\n}\n"
    }

    static var files: [String: String] {
        [
            "static/js/libs/chartish.min.js": "/*! Chartish v2.1.0 | (c) 2024 Chartish contributors | MIT License */\n"
                + minified(3_000) + "function show(){\(sink)}" + minified(3_000) + "\n//# sourceMappingURL=chartish.min.js.map\n",
            "static/assets/index-4f3a9c1b.js": "import{r as a}from\"./vendor-9c1b4f3a.js\";\n" + minified(2_000)
                + "var k=\"\(key)\";function p(){\(sink)}" + minified(2_000) + "\n",
            "static/js/app.js": handWritten,
        ]
    }

    static let summary =
        "2 files left out of code analysis by the default ignores: 2 generated or vendored code (minified, source map, "
        + "library banner, hashed chunk name); secrets are still searched in them (--no-default-excludes analyses them)"

    @Test func bundlesAreLeftOutAndNamedWhileTheHandWrittenFileIsAnalysed() throws {
        let root = try CLI.tree(texts: Self.files, prefix: "sentinel-generated")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let scan = try CLI.run(["scan", root, "--tools", "native,secrets", "--fail-on", "none"], environment: environment)
        #expect(scan.status == 0, "\(scan.stderr)")
        let findings = scan.stdout.split(separator: "\n").filter { $0.contains(": [") }
        let sast = findings.filter { $0.contains("[javascript.") }
        #expect(!sast.isEmpty && sast.allSatisfy { $0.hasPrefix("static/js/app.js:") }, "\(scan.stdout)")
        #expect(findings.contains { $0.hasPrefix("static/assets/index-4f3a9c1b.js:") && $0.contains("aws") }, "\(scan.stdout)")
        #expect(scan.stdout.hasSuffix("; \(Self.summary)\n"), "\(scan.stdout)")
        #expect(scan.stdout.contains("(1 file scanned in "), "\(scan.stdout)")

        let all = try CLI.run(
            ["scan", root, "--tools", "native,secrets", "--fail-on", "none", "--no-default-excludes"], environment: environment)
        let analysed = Set(
            all.stdout.split(separator: "\n").filter { $0.contains("[javascript.") }.compactMap { $0.split(separator: ":").first })
        #expect(analysed == ["static/js/app.js", "static/js/libs/chartish.min.js", "static/assets/index-4f3a9c1b.js"], "\(all.stdout)")
        #expect(!all.stdout.contains("left out of code analysis"), "\(all.stdout)")
    }

    /// docs/SECURITY.md §1b: a pull request that appends a source map comment to the
    /// hand-written `app.js` it adds a sink to does not hide it; the vendored library it rebuilds
    /// stays left out, as the base had it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git"))
    func aPullRequestCannotHideItsCodeBehindAGeneratedMarker() throws {
        let library = "static/js/libs/chartish.min.js"
        let root = try CLI.tree(
            texts: ["static/js/app.js": Self.handWritten, library: Self.files[library]!], prefix: "sentinel-generated-pr")
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        try CLI.git(["init", "-q"], in: root)
        try CLI.git(["add", "."], in: root)
        try CLI.git(["commit", "-q", "-m", "base"], in: root)
        let head = Self.handWritten + "function showTitle() {\n  \(Self.sink);\n}\n//# sourceMappingURL=app.js.map\n"
        try head.write(toFile: root + "/static/js/app.js", atomically: true, encoding: .utf8)
        try Self.files[library]!.replacingOccurrences(of: "v2.1.0", with: "v2.2.0")
            .write(toFile: root + "/" + library, atomically: true, encoding: .utf8)

        let arguments = ["scan", root, "--tools", "native", "--fail-on", "none"]
        let pullRequest = try CLI.run(arguments + ["--since", "HEAD"], environment: environment)
        #expect(pullRequest.status == 0, "\(pullRequest.stderr)")
        let sast = pullRequest.stdout.split(separator: "\n").filter { $0.contains("[javascript.") }
        #expect(sast.contains { $0.hasPrefix("static/js/app.js:3605:") }, "\(pullRequest.stdout)")
        #expect(!sast.contains { $0.hasPrefix(library) }, "\(pullRequest.stdout)")
        #expect(pullRequest.stdout.contains("1 generated or vendored code (minified, source map, library banner)"), "\(pullRequest.stdout)")

        // Without the base, the head's own marker would have decided.
        let push = try CLI.run(arguments, environment: environment)
        #expect(!push.stdout.contains("static/js/app.js:"), "\(push.stdout)")
        #expect(push.stdout.contains("2 generated or vendored code (minified, source map, library banner)"), "\(push.stdout)")
    }
}
