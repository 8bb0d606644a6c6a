import Foundation
import Testing

/// `--since REV`: only findings on lines changed since REV.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git"), "needs git"))
struct DiffAwareCLITests {

    /// The start lines of a JSON report's findings.
    static func lines(_ text: String) -> Set<Int> {
        let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        let findings = json?["findings"] as? [[String: Any]] ?? []
        return Set(findings.compactMap { ($0["location"] as? [String: Any])?["startLine"] as? Int })
    }

    @Test func onlyChangedLinesAreReported() throws {
        let directory = NSTemporaryDirectory() + "sentinel-since-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = "import os\n\ndef a(x):\n    os.system(\"ls \" + x)\n"
        try old.write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)
        try CLI.git(["init", "-q"], in: directory)
        try CLI.git(["add", "."], in: directory)
        try CLI.git(["commit", "-q", "-m", "first"], in: directory)
        try (old + "\ndef b(y):\n    eval(y)\n").write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)

        // os.system and eval of a parameter are audits (low confidence): every finding is asked for.
        let all = try CLI.run([
            "scan", directory, "--sast", "--tools", "native", "--format", "json", "--fail-on", "none", "--min-confidence", "low",
        ])
        let since = try CLI.run([
            "scan", directory, "--sast", "--tools", "native", "--format", "json", "--fail-on", "none",
            "--since", "HEAD", "--min-confidence", "low",
        ])
        #expect(all.status == 0 && since.status == 0, "\(all.stderr) \(since.stderr)")
        let lines = Self.lines
        #expect(lines(all.stdout).contains(4))
        #expect(lines(all.stdout).contains(7))
        #expect(lines(since.stdout) == [7], "\(since.stdout)")

        let bad = try CLI.run(["scan", directory, "--since", "no-such-revision"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--since no-such-revision"))
    }

    /// Issue 76, H5: a `.gitattributes` in the change (`*.py -diff`) made git print "Binary files
    /// differ" for every Python file, with no line numbers: every finding in them was dropped.
    @Test func attributesInTheChangeHideNoLines() throws {
        let directory = NSTemporaryDirectory() + "sentinel-since-binary-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let old = "import os\n\ndef a(x):\n    os.system(\"ls \" + x)\n"
        try old.write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)
        try CLI.git(["init", "-q"], in: directory)
        try CLI.git(["add", "."], in: directory)
        try CLI.git(["commit", "-q", "-m", "first"], in: directory)
        for attributes in ["*.py -diff\n", "*.py binary\n"] {
            try attributes.write(toFile: directory + "/.gitattributes", atomically: true, encoding: .utf8)
            try (old + "\ndef b(y):\n    eval(y)\n").write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)
            let since = try CLI.run([
                "scan", directory, "--sast", "--tools", "native", "--format", "json", "--fail-on", "none",
                "--since", "HEAD", "--min-confidence", "low",
            ])
            #expect(since.status == 0, "\(since.stderr)")
            #expect(Self.lines(since.stdout) == [7], "\(attributes): \(since.stdout.prefix(600))")
        }
    }

    /// A scanned repository's own `.git/config` is hostile: filters, textconv, fsmonitor, an
    /// external diff and hooks it names must never run on the host during `scan --since` (or for
    /// the SARIF root lookup), and the scan still works.
    @Test func repositoryConfigRunsNothing() throws {
        let directory = NSTemporaryDirectory() + "sentinel-since-hostile-\(UUID().uuidString)"
        let marker = directory + ".ran"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(atPath: directory)
            try? FileManager.default.removeItem(atPath: marker)
        }
        let old = "import os\n\ndef a(x):\n    os.system(\"ls \" + x)\n"
        try old.write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)
        try CLI.git(["init", "-q"], in: directory)
        try CLI.git(["add", "."], in: directory)
        try CLI.git(["commit", "-q", "-m", "first"], in: directory)
        let run = "sh -c 'echo ran >> \(marker); cat'"
        for (key, value) in [
            ("filter.evil.clean", run), ("filter.evil.smudge", run), ("filter.evil.required", "true"),
            ("diff.evil.textconv", run), ("diff.evil.command", run), ("diff.external", run),
            ("core.fsmonitor", run), ("core.hooksPath", directory), ("core.pager", run),
        ] {
            try CLI.git(["config", key, value], in: directory)
        }
        try "*.py filter=evil diff=evil\n".write(toFile: directory + "/.gitattributes", atomically: true, encoding: .utf8)
        try (old + "\ndef b(y):\n    eval(y)\n").write(toFile: directory + "/app.py", atomically: true, encoding: .utf8)

        let since = try CLI.run([
            "scan", directory, "--sast", "--tools", "native", "--format", "sarif", "--fail-on", "none",
            "--since", "HEAD", "--min-confidence", "low",
        ])
        #expect(!FileManager.default.fileExists(atPath: marker), "the repository's git config ran a command on the host")
        #expect(since.status == 0, "\(since.stderr)")
        #expect(since.stdout.contains("\"startLine\": 7"), "\(since.stdout.prefix(400))")
    }
}
