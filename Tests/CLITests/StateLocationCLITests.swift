#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

/// Issue 27: state lives in the XDG base directories, not in `./.sentinel` of wherever the
/// command ran; `SENTINEL_HOME` still overrides; an older `./.sentinel` the user made moves over.
@Suite(.serialized) struct StateLocationCLITests {
    let root = NSTemporaryDirectory() + "sentinel-xdg-\(UUID().uuidString)"
    var home: String { root + "/home" }
    var repo: String { root + "/repo" }
    var other: String { root + "/other" }
    static let examples = CLI.packageRoot + "/examples"

    init() throws {
        for directory in [home, repo, other] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try "pyyaml==5.3\n".write(toFile: repo + "/requirements.txt", atomically: true, encoding: .utf8)
    }

    /// The process environment without Sentinel's and XDG's variables, plus `extra`.
    func environment(_ extra: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in ["SENTINEL_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "HOME"] { environment[name] = nil }
        return environment.merging(extra) { _, new in new }
    }

    func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    @Test func stateGoesToTheXDGDefaultsAndIsSeenFromAnyDirectory() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let env = environment(["HOME": home])
        let imported = try CLI.run(["db", "import", Self.examples + "/osv"], environment: env, directory: repo)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasSuffix("\ndatabase: \(home)/.cache/sentinel/osv.sqlite\n"), "\(imported.stdout)")
        #expect(!exists(repo + "/.sentinel"))

        // Scanning from another directory finds the same data.
        let scan = try CLI.run(
            ["scan", repo, "--sca", "--allow-stale-db", "--fail-on", "none"], environment: env, timeout: 300, directory: other)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(scan.stdout.contains("pyyaml 5.3 is affected by"), "\(scan.stdout)")

        // Durable state (here the heal memory) goes to the state directory.
        let memory = try CLI.run(["memory", "list"], environment: env, directory: other)
        #expect(memory.status == 0, "\(memory.stderr)")
        #expect(exists(home + "/.local/state/sentinel/heal.sqlite"))
        #expect(!exists(other + "/.sentinel") && !exists(repo + "/.sentinel"))
    }

    @Test func absoluteXDGVariablesAreUsedAndRelativeOnesIgnored() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let absolute = try CLI.run(
            ["db", "import", Self.examples + "/osv"],
            environment: environment(["HOME": home, "XDG_CACHE_HOME": root + "/cache"]), directory: repo)
        #expect(absolute.stdout.hasSuffix("\ndatabase: \(root)/cache/sentinel/osv.sqlite\n"), "\(absolute.stdout)")
        let relative = try CLI.run(
            ["db", "import", Self.examples + "/osv"], environment: environment(["HOME": home, "XDG_CACHE_HOME": "cache"]),
            directory: repo)
        #expect(relative.stdout.hasSuffix("\ndatabase: \(home)/.cache/sentinel/osv.sqlite\n"), "\(relative.stdout)")
        // SENTINEL_HOME holds everything, as before.
        let overridden = try CLI.run(
            ["db", "import", Self.examples + "/osv"],
            environment: environment(["HOME": home, "XDG_CACHE_HOME": root + "/cache", "SENTINEL_HOME": root + "/sh"]),
            directory: repo)
        #expect(overridden.stdout.hasSuffix("\ndatabase: \(root)/sh/osv.sqlite\n"), "\(overridden.stdout)")
    }

    @Test func noHomeIsAClearError() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let result = try CLI.run(["db", "status"], environment: environment([:]), directory: repo)
        #expect(result.status == 2)
        #expect(
            result.stderr
                == "sentinel: HOME is not set to an absolute path, so there is no XDG_STATE_HOME default: set HOME, XDG_STATE_HOME or SENTINEL_HOME\n"
        )
        #expect(!exists(repo + "/.sentinel"))
    }

    /// An older Sentinel's `./.sentinel` (made 0700 by Sentinel) moves, with one line saying so.
    @Test func anOlderStateDirectoryTheUserMadeMovesWithANotice() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = repo + "/.sentinel"
        let made = try CLI.run(["db", "import", Self.examples + "/osv"], environment: environment(["SENTINEL_HOME": legacy]))
        try #require(made.status == 0, "\(made.stderr)")
        let memory = try CLI.run(["memory", "list"], environment: environment(["SENTINEL_HOME": legacy]))
        try #require(memory.status == 0, "\(memory.stderr)")

        let env = environment(["HOME": home])
        let status = try CLI.run(["db", "status"], environment: env, directory: repo)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(
            status.stderr
                == "sentinel: notice: moved the state in \(legacy): heal.sqlite to \(home)/.local/state/sentinel; "
                + "osv.sqlite to \(home)/.cache/sentinel\n")
        #expect(status.stdout.hasPrefix("database  \(home)/.cache/sentinel/osv.sqlite "), "\(status.stdout)")
        #expect(exists(home + "/.local/state/sentinel/heal.sqlite"))
        #expect(!exists(legacy))
        let again = try CLI.run(["db", "status"], environment: env, directory: repo)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
    }

    /// A `.sentinel` a checkout brought (mode from the umask, not 0700) is never imported.
    @Test func aCheckedOutStateDirectoryIsNotImported() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = repo + "/.sentinel"
        let made = try CLI.run(["db", "import", Self.examples + "/osv"], environment: environment(["SENTINEL_HOME": legacy]))
        try #require(made.status == 0, "\(made.stderr)")
        #expect(chmod(legacy, 0o755) == 0)

        let status = try CLI.run(["db", "status"], environment: environment(["HOME": home]), directory: repo)
        #expect(status.status == 2)
        #expect(
            status.stderr
                == "sentinel: no OSV database at \(home)/.cache/sentinel/osv.sqlite: run `sentinel db import PATH...` or `sentinel db update`\n"
        )
        #expect(exists(legacy + "/osv.sqlite"))
    }

    /// Under umask 077 a checkout makes 0700 directories too: what git tracks there is the
    /// repository's, never imported.
    @Test func aStateDirectoryGitTracksIsNotImported() throws {
        defer { try? FileManager.default.removeItem(atPath: root) }
        let legacy = repo + "/.sentinel"
        let made = try CLI.run(["db", "import", Self.examples + "/osv"], environment: environment(["SENTINEL_HOME": legacy]))
        try #require(made.status == 0, "\(made.stderr)")
        for arguments in [["init", "-q"], ["add", "-f", ".sentinel/osv.sqlite"]] {
            let git = try CLI.runProgram("/usr/bin/git", arguments, environment: environment(["HOME": home]), directory: repo)
            try #require(git.status == 0, "\(git.stderr)")
        }

        let status = try CLI.run(["db", "status"], environment: environment(["HOME": home]), directory: repo)
        #expect(status.status == 2)
        #expect(status.stderr.hasPrefix("sentinel: no OSV database at \(home)/.cache/sentinel/osv.sqlite:"), "\(status.stderr)")
        #expect(exists(legacy + "/osv.sqlite"))
    }
}
