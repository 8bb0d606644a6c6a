import Foundation
import Testing

/// Hostile inputs round 3, finding 19: Python is found by content too. A script named without
/// `.py` whose shebang runs Python is analysed as Python; a shell script is not.
struct ShebangScanCLITests {
    @Test("a script with a Python shebang is analysed; a shell script is not")
    func shebangScripts() throws {
        let root = try CLI.tree([:], prefix: "shebang")
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/bin", withIntermediateDirectories: true)
        let body = "import os, sys\nos.system(sys.argv[1])\n"
        try ("#!/usr/bin/env python3\n" + body).write(toFile: root + "/bin/deploy", atomically: false, encoding: .utf8)
        try ("#!/usr/local/bin/python3.12 -u\n" + body).write(toFile: root + "/bin/migrate", atomically: false, encoding: .utf8)
        try "#!/bin/sh\nos.system(sys.argv[1])\n".write(toFile: root + "/bin/run", atomically: false, encoding: .utf8)
        let result = try CLI.run(
            ["scan", root, "--allow-missing-db", "--min-confidence", "low", "--format", "json", "--fail-on", "none"], timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let files = Set(
            (report["findings"] as? [[String: Any]] ?? []).compactMap { ($0["location"] as? [String: Any])?["file"] as? String })
        #expect(files == ["bin/deploy", "bin/migrate"], "\(result.stdout.prefix(1500))")
    }
}
