#if canImport(Glibc)
    import Glibc
#endif
import Foundation
import Testing

/// Issue 26, end to end: hostile depth and binary-looking files in a scanned repository. The
/// real binary runs in a child process, so a crash shows as a signal status, not a lost run.
@Suite(.serialized) struct HostileDepthCLITests {
    let home = NSTemporaryDirectory() + "sentinel-home-\(UUID().uuidString)"
    var environment: [String: String] { CLI.environment(home: home) }

    /// A fresh directory holding `files` (path → bytes).
    static func tree(_ files: [String: [UInt8]]) throws -> String { try CLI.tree(files, prefix: "sentinel-hostile") }

    /// `rm -rf`, which removes trees of any depth through descriptors.
    static func remove(_ path: String) {
        _ = try? Process.run(URL(fileURLWithPath: "/bin/rm"), arguments: ["-rf", path]).waitUntilExit()
    }

    @Test func aTenThousandSegmentDottedKeyInALockfileIsBadInputNotACrash() throws {
        let key = Array(repeating: "a", count: 10_000).joined(separator: ".")
        let root = try Self.tree([
            "requirements.txt": Array("flask==0.12.2\n".utf8),
            "poetry.lock": Array("[[package]]\n\(key) = \"1\"\n".utf8),
        ])
        defer {
            Self.remove(root)
            Self.remove(home)
        }
        let imported = try CLI.run(["db", "import", CLI.packageRoot + "/examples/osv"], environment: environment)
        #expect(imported.status == 0, "\(imported.stderr)")
        let result = try CLI.run(["scan", root, "--tools", "osv", "--allow-stale-db"], environment: environment, timeout: 600)
        #expect(result.status == 2, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains("error: poetry.lock:2: TOML key nested too deeply"), "\(result.stdout.suffix(500))")
    }

    @Test func aTwelveThousandLevelDirectoryChainIsReportedNotACrash() throws {
        let root = try Self.tree(["app.py": Array("x = 1\n".utf8)])
        defer {
            Self.remove(root)
            Self.remove(home)
        }
        var fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        for _ in 0..<12_000 {
            try #require(mkdirat(fd, "d", 0o755) == 0)
            let next = openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            close(fd)
            fd = next
            try #require(fd >= 0)
        }
        close(fd)
        let result = try CLI.run(["scan", root, "--tools", "secrets"], environment: environment, timeout: 600)
        #expect(result.status == 0, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains(": note: skipped: nested deeper than"), "\(result.stdout.suffix(500))")
    }

    @Test func aKeyInAFileWithANulByteIsFound() throws {
        let key = "AKIA" + "Q3EGZT7RKMXJ4HVN"
        let root = try Self.tree(["blob.dat": [0x7F, 0x45, 0x4C, 0x46, 0, 0, 0, 1] + Array("\naws = \"\(key)\"\n".utf8)])
        defer {
            Self.remove(root)
            Self.remove(home)
        }
        let result = try CLI.run(["scan", root, "--tools", "secrets"], environment: environment, timeout: 300)
        #expect(result.status == 1, "status \(result.status): \(result.stderr.suffix(300))")
        #expect(result.stdout.contains("blob.dat:2:8: high: [secrets.aws-access-key-id]"), "\(result.stdout)")
        #expect(!result.stdout.contains(key))
    }
}
