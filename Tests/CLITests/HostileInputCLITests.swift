#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

/// Issue 26: what a scanned repository contains is hostile. Through the real CLI, a tree that
/// links out of itself (`e -> HOST`, `.sentinel.yml -> HOST/file`) never makes Sentinel read,
/// print or report a host file's content, in any format or on stderr.
@Suite(.serialized) struct HostileInputCLITests {
    /// A repository and, beside it, a "host" directory whose files carry a marker.
    final class Scene {
        let base = NSTemporaryDirectory() + "sentinel-hostile-\(UUID().uuidString)"
        var tree: String { base + "/repo" }
        var host: String { base + "/host" }
        var home: String { base + "/home" }
        let marker = "HOSTMARKER\(UUID().uuidString.prefix(8))"
        var environment: [String: String] {
            var environment = ProcessInfo.processInfo.environment
            environment["SENTINEL_HOME"] = home
            return environment
        }

        init() throws {
            for directory in [tree, host, home] {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            }
        }
        deinit { try? FileManager.default.removeItem(atPath: base) }

        func write(_ path: String, _ text: String) throws { try Data(text.utf8).write(to: URL(fileURLWithPath: path)) }
        func link(_ name: String, to target: String) throws {
            try FileManager.default.createSymbolicLink(atPath: tree + "/" + name, withDestinationPath: target)
        }
    }

    /// `-r e/shadow`, a nested `-r` and a `-c`, with `e -> HOST` (as `e -> /etc` would be).
    @Test(arguments: ["text", "json", "sarif"])
    func requirementsIncludesThroughALinkNeverReadTheHost(format: String) throws {
        let scene = try Scene()
        try scene.write(scene.host + "/shadow", "root:\(scene.marker)-shadow:19000:0:99999:7:::\n")
        try scene.write(scene.host + "/nested", "daemon:\(scene.marker)-nested:19000\n")
        try scene.write(scene.host + "/constraints", "bin:\(scene.marker)-constraint:19000\n")
        try scene.link("e", to: scene.host)
        try scene.write(scene.tree + "/requirements.txt", "-r e/shadow\n-r base-requirements.txt\n-c e/constraints\nsix==1.16.0\n")
        try scene.write(scene.tree + "/base-requirements.txt", "-r e/nested\n")
        let imported = try CLI.run(
            ["db", "import", CLI.packageRoot + "/examples/osv"], environment: scene.environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try CLI.run(
            ["scan", scene.tree, "--sca", "--tools", "osv", "--format", format, "--fail-on", "none", "--allow-stale-db"],
            environment: scene.environment, timeout: 120)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains(scene.marker), "\(result.stdout)")
        #expect(!result.stderr.contains(scene.marker), "\(result.stderr)")
        if format == "text" {
            #expect((result.stdout + result.stderr).contains("cannot read included file e/shadow"), "\(result.stdout)")
        }
    }

    /// `.sentinel.yml -> HOST/file`: refused unread, and the error does not echo the host file.
    /// Issue 54, finding 16 (the error path): an error quoting outside text -- here a path's
    /// name; in the campaign a GitHub 422 message -- reached the terminal with its escape
    /// sequences raw (`ESC[2J` cleared the operator's screen). Every line written to stderr has
    /// its controls escaped.
    @Test func anErrorQuotingOutsideTextCannotDriveTheTerminal() throws {
        let scene = try Scene()
        let result = try CLI.run(["scan", scene.base + "/missing\u{1B}[2J\u{1B}]0;PWNED\u{07}"], environment: scene.environment)
        #expect(result.status == 2)
        #expect(!result.stderr.contains("\u{1B}") && !result.stderr.contains("\u{07}"), "\(result.stderr.debugDescription)")
        #expect(result.stderr.contains("missing\\x1b[2J\\x1b]0;PWNED\\x07"), "\(result.stderr)")
    }

    @Test func aConfigLinkedToAHostFileIsRefusedUnread() throws {
        let scene = try Scene()
        try scene.write(scene.host + "/config.yml", "\(scene.marker): 1\n")
        try scene.link(".sentinel.yml", to: scene.host + "/config.yml")
        try scene.write(scene.tree + "/app.py", "print('hello')\n")
        let result = try CLI.run(["scan", scene.tree, "--tools", "secrets"], environment: scene.environment)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains(scene.marker) && !result.stderr.contains(scene.marker), "\(result.stderr)")
        #expect(result.stderr.contains("\(scene.tree)/.sentinel.yml: is or passes through a symbolic link"), "\(result.stderr)")
    }

    /// A FIFO at `.sentinel.yml` would block a plain open for ever: refused at once instead.
    @Test func aConfigThatIsAFIFOIsRefusedWithoutHanging() throws {
        let scene = try Scene()
        #expect(mkfifo(scene.tree + "/.sentinel.yml", 0o644) == 0)
        try scene.write(scene.tree + "/app.py", "print('hello')\n")
        let result = try CLI.run(["scan", scene.tree, "--tools", "secrets"], environment: scene.environment, timeout: 60)
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("\(scene.tree)/.sentinel.yml: not a regular file"), "\(result.stderr)")
    }
}
