import Foundation
import Testing

/// Foundation's `deletingLastPathComponent` traps on a one-character path (`a`): every path the
/// CLI splits goes through `Support.PathText` instead. The real binary runs in a child process, so
/// a trap shows as a signal status (132), not a lost test run.
@Suite struct OneCharacterPathCLITests {
    /// A fresh directory holding `t/a.py`, a one-character config `c` and a one-character source `f`.
    static func scene() throws -> String {
        let root = NSTemporaryDirectory() + "sentinel-onechar-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: root + "/t", withIntermediateDirectories: true)
        try "x = 1\n".write(toFile: root + "/t/a.py", atomically: false, encoding: .utf8)
        try "failOn: none\n".write(toFile: root + "/c", atomically: false, encoding: .utf8)
        try "print(1)\n".write(toFile: root + "/f", atomically: false, encoding: .utf8)
        return root
    }

    @Test("one-character paths to scan and to configure it", arguments: [["scan", "t", "--config", "c"], ["scan", "f"]])
    func oneCharacterNames(arguments: [String]) throws {
        let root = try Self.scene()
        defer { try? FileManager.default.removeItem(atPath: root) }
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = root + "/home"
        let result = try CLI.run(arguments, environment: environment, directory: root)
        #expect(result.status == 0, "status \(result.status): \(result.stderr.suffix(300))")
    }
}
