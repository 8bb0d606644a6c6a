import Findings
import Foundation
import SAST
import ScanCore
import Testing

@testable import Scan

/// Issue 60: code in a language no rule reads, and a lockfile no parser reads, are said — never
/// counted as scanned and passed as clean (a `.ts` handler scanned as "No findings (1 file
/// scanned)").
@Suite struct LanguageCoverageTests {
    static func scan(_ files: [String: String], scanners: [any ScanCore.Scanner]) throws -> Report {
        let root = try SecretsCoverageTests.tree(files)
        defer { try? FileManager.default.removeItem(atPath: root) }
        return try ScanRunner(scanners: scanners).run(ScanRequest(root: root), context: ScanContext()).report
    }

    @Test("Go and Ruby files are named as not analysed and not counted; JavaScript and TypeScript are read; an unread lockfile is named")
    func unanalysedCodeAndLockfilesAreSaid() throws {
        let report = try Self.scan(
            [
                "server.ts": "exec('ls ' + req.query.dir)\n", "web/app.tsx": "<div/>\n", "web/util.js": "x()\n",
                "cmd/main.go": "package main\n", "lib/a.rb": "puts 1\n", "lib/b.rb": "puts 2\n", "app.py": "print(1)\n",
                "bun.lockb": "\u{0}",
            ],
            scanners: [NativeSASTScanner(), SecretsScanner(), DependencyScanner()])
        #expect(
            report.notices.map(\.message).contains(
                "code not analysed (no rules for its language yet): 2 Ruby files, 1 Go file; only secrets were looked for in it"
            ), "\(report.notices.map(\.message))")
        #expect(report.notices.contains { $0.file == "bun.lockb" && $0.message.hasPrefix("lockfile not read: Bun's binary lockfile") })
        #expect(report.filesScanned == 5)
    }

    @Test("a tree of TypeScript only is analysed by the native rules, not said to be unanalysed")
    func typeScriptAloneIsAnalysed() throws {
        let report = try Self.scan(["src/index.ts": "eval(input)\n"], scanners: [NativeSASTScanner(), SecretsScanner()])
        #expect(!report.notices.contains { $0.message.hasPrefix("code not analysed") }, "\(report.notices.map(\.message))")
        #expect(report.filesScanned == 1)
    }

    @Test("without a code scanner asked for, nothing is said about languages")
    func secretsOnlySaysNothingOfLanguages() throws {
        let report = try Self.scan(["src/index.ts": "eval(input)\n"], scanners: [SecretsScanner()])
        #expect(!report.notices.contains { $0.message.hasPrefix("code not analysed") })
        #expect(report.filesScanned == 1)
    }
}
