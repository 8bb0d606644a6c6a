import Foundation
import Testing

/// Issue 26, Python sources that hide code from the scan: `sentinel scan` over a temporary tree whose
/// files declare codecs under which a comment is code to CPython, or exceed the parser's bounds.
/// Never "clean", exit 0. The native tools only, so no sandbox is needed.
@Suite(.serialized) struct HostileSourceCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] { CLI.environment(home: home) }

    /// A fresh directory holding `files` (path → bytes).
    static func tree(_ files: [String: [UInt8]]) throws -> String { try CLI.tree(files, prefix: "sentinel-encoding") }

    /// `(ruleId, file, line)` of every finding of a JSON report.
    static func findings(_ stdout: String) throws -> [(rule: String, file: String, line: Int)] {
        let json = try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any]
        return (json?["findings"] as? [[String: Any]] ?? []).map { finding in
            let location = finding["location"] as? [String: Any]
            return (finding["ruleId"] as? String ?? "", location?["file"] as? String ?? "", location?["startLine"] as? Int ?? 0)
        }
    }

    /// Each runs `os.system(input())` under CPython 3.11 (the test's author checked every one).
    static let decoded: [String: String] = [
        "escape.py": "# -*- coding: unicode_escape -*-\nimport os\n# \\u000aos.system(input())\n",
        "raw.py": "# coding: raw_unicode_escape\nimport os\n# \\u000aos.system(input())\n",
        "seven.py": "# coding: utf-7\nimport os\n# +AAo-os.system(input())\n",
    ]

    @Test func hiddenCommandInjectionIsFoundWhereCPythonRunsIt() throws {
        let root = try Self.tree(Self.decoded.mapValues { Array($0.utf8) })
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "high", "--min-confidence", "low"],
            environment: environment)
        #expect(scan.status == 1, "\(scan.stderr)")
        let found = try Self.findings(scan.stdout)
        for file in Self.decoded.keys.sorted() {
            // Line 4: CPython's own line for it (the decoded newline starts a line).
            #expect(
                found.contains { $0.file == file && $0.line == 4 && $0.rule == "python.taint-command-injection" },
                "\(file): \(found)")
            #expect(
                found.contains { $0.file == file && $0.line == 1 && $0.rule == "sentinel.source-encoding-evasion" },
                "\(file): \(found)")
        }
    }

    @Test func aCodecThatIsNotDecodedIsAFindingNotAClean() throws {
        let files: [String: [UInt8]] = [
            "hz.py": Array("# coding: hz\nimport os\nos.system(input())  # ~{<:~}\n".utf8),
            // `python3 ebcdic.py` reads the EBCDIC lines after the cookie line as code and runs them.
            "ebcdic.py": Array("# coding: cp037\n".utf8) + Array("\nos.system(input())\n".utf8).map(Self.ebcdic),
            "named.py": Array("# coding: unicode_escape\nimport os\n# \\N{LINE FEED}os.system(input())\n".utf8),
        ]
        let root = try Self.tree(files)
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        let scan = try CLI.run(
            ["scan", root, "--tools", "native", "--format", "json", "--fail-on", "high"], environment: environment)
        #expect(scan.status == 1, "\(scan.stdout)\n\(scan.stderr)")
        let found = try Self.findings(scan.stdout)
        for file in files.keys.sorted() {
            #expect(
                found.contains { $0.file == file && $0.line == 1 && $0.rule == "sentinel.source-encoding-evasion" },
                "\(file): \(found)")
        }
    }

    @Test func aFileBeyondTheParserBoundsIsAFindingNotAClean() throws {
        // Python 3.11 and 3.13 run this; the parser stops at 3,000 links.
        let chain = "import os\nos.system(input())\nx = " + Array(repeating: "1", count: 3500).joined(separator: "+") + "\n"
        let root = try Self.tree(["chain.py": Array(chain.utf8)])
        defer {
            try? FileManager.default.removeItem(atPath: root)
            try? FileManager.default.removeItem(atPath: home)
        }
        // The default gate (`high`) fails closed on it (hostile inputs round 3).
        let scan = try CLI.run(["scan", root, "--tools", "native", "--format", "json"], environment: environment)
        #expect(scan.status == 1, "\(scan.stdout)\n\(scan.stderr)")
        let found = try Self.findings(scan.stdout)
        #expect(found.contains { $0.file == "chain.py" && $0.line == 3 && $0.rule == "sentinel.file-not-analysed" }, "\(found)")
    }

    /// The cp037 (EBCDIC) byte of the few ASCII characters used above.
    static func ebcdic(_ c: UInt8) -> UInt8 {
        let table: [Character: UInt8] = [
            "\n": 0x25, "o": 0x96, "s": 0xA2, ".": 0x4B, "y": 0xA8, "t": 0xA3, "e": 0x85, "m": 0x94, "(": 0x4D,
            ")": 0x5D, "i": 0x89, "n": 0x95, "p": 0x97, "u": 0xA4,
        ]
        return table[Character(UnicodeScalar(c))] ?? 0x40
    }
}
