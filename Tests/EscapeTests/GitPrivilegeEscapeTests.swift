import Foundation
import Git
import Support
import Testing

/// git on a repository a payload could have written (red team round 4, R2): nothing the
/// repository's `.git` says runs on the host, and git itself never runs as root.
@Suite("git: a hostile .git runs nothing as root")
struct GitPrivilegeEscapeTests {
    /// A scratch directory with a repository `top` at one commit, and a marker file a hostile
    /// program would write (as the host sees it).
    final class Scratch {
        let root: String
        var top: String { root + "/top" }
        var marker: String { root + "/marker" }

        init() throws {
            root = try ScratchDirectory.make(prefix: "git-escape")
            try Self.git(["init", "-q", "-b", "main", root + "/top"])
            try "x = 1\n".write(toFile: top + "/a.py", atomically: false, encoding: .utf8)
            // The hostile program: writes the uid it ran as where the host can see it, and says
            // it ran on stderr (which git passes on) should it run where that file is out of reach.
            try "#!/bin/sh\nid -u > \(marker)\necho hostile-program-ran >&2\ncat\n".write(
                toFile: top + "/hook.sh", atomically: false, encoding: .utf8)
            try Self.git(["-C", top, "add", "-A"])
            try Self.git(["-C", top, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "init"])
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// The host's git, as the test's own tool (not Sentinel's runner).
        static func git(_ arguments: [String]) throws {
            let process = try Process.run(URL(fileURLWithPath: "/usr/bin/git"), arguments: arguments)
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw SentinelError(.io, "git \(arguments) failed") }
        }

        func append(_ text: String, to path: String) throws {
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(text.utf8))
            try handle.close()
        }

        /// Makes `path` stat-dirty with the same content, so that git must hash it (through its filter).
        func touch(_ path: String) throws {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(5)], ofItemAtPath: path)
        }

        /// Adds a submodule `lib` to `top` (committed, after `beforeCommit` ran on it), then plants
        /// what a payload could write: the submodule's own config names a filter, its tree selects
        /// it, and a file of it is stat-dirty, so that entering the submodule runs the filter.
        func addHostileSubmodule(beforeCommit: () throws -> Void = {}) throws {
            try Self.git(["init", "-q", "-b", "main", root + "/sub"])
            try "hi\n".write(toFile: root + "/sub/f.txt", atomically: false, encoding: .utf8)
            try Self.git(["-C", root + "/sub", "add", "-A"])
            try Self.git(["-C", root + "/sub", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "s"])
            try Self.git(["-C", top, "-c", "protocol.file.allow=always", "submodule", "add", "-q", "../sub", "lib"])
            try beforeCommit()
            try Self.git(["-C", top, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "sub"])
            try append("[filter \"x\"]\n\tclean = sh ../hook.sh\n", to: top + "/.git/modules/lib/config")
            try "* filter=x\n".write(toFile: top + "/lib/.gitattributes", atomically: false, encoding: .utf8)
            try touch(top + "/lib/f.txt")
        }
    }

    @Test("a submodule planted in .git whose own config sets a clean filter: diff runs nothing (R2)")
    func submoduleFilterDoesNotRun() throws {
        let scratch = try Scratch()
        try scratch.addHostileSubmodule()

        let output = try GitRunner.run(["diff", "--unified=0", "--no-color", "HEAD", "--"], in: scratch.top)
        #expect(output.status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.marker), "the submodule's filter ran on the host")
        #expect(!output.stderr.contains("hostile-program-ran"), "the submodule's filter ran: \(output.stderr)")
    }

    @Test("a submodule whose .gitmodules says ignore=none: status for a proposal enters it not (R2 by another route)")
    func statusDoesNotEnterSubmodules() throws {
        let scratch = try Scratch()
        // Committed in .gitmodules; the submodule's own filter rewrites what it reads, so entered,
        // the submodule looks changed.
        try scratch.addHostileSubmodule {
            try Scratch.git(["-C", scratch.top, "config", "-f", ".gitmodules", "submodule.lib.ignore", "none"])
            try Scratch.git(["-C", scratch.top, "add", "-A"])
        }

        #expect(try GitRepository(containing: scratch.top).uncommittedChanges() == [])
        #expect(!FileManager.default.fileExists(atPath: scratch.marker), "the submodule's filter ran on the host")
    }

    @Test("a promisor remote in the repository's config fetches nothing and runs no upload-pack")
    func noLazyFetch() throws {
        let scratch = try Scratch()
        // A blob the repository lacks, and a promisor remote that would fetch it by running a program.
        let blob = String(decoding: try GitRunner.check(["rev-parse", "HEAD:a.py"], in: scratch.top), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(atPath: scratch.top + "/.git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")
        try scratch.append(
            "[remote \"evil\"]\n\tpromisor = true\n\turl = .\n\tuploadpack = sh hook.sh\n"
                + "[protocol \"file\"]\n\tallow = always\n",
            to: scratch.top + "/.git/config")

        // A run that may write (as commits and branches do): a read-only one could not store the fetch.
        let output = try GitRunner.run(["cat-file", "blob", "HEAD:a.py"], in: scratch.top, writable: true)
        #expect(output.status != 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.marker), "upload-pack ran on the host")
        #expect(!output.stderr.contains("hostile-program-ran"), "upload-pack ran: \(output.stderr)")
    }

    @Test("a filter whose name holds '=' is overridden like any other (git splits -c at the first '=')")
    func filterNameWithEqualsSignIsGuarded() throws {
        let scratch = try Scratch()
        try "*.py filter=x=y\n".write(toFile: scratch.top + "/.gitattributes", atomically: false, encoding: .utf8)
        try scratch.append("[filter \"x=y\"]\n\tclean = sh hook.sh\n", to: scratch.top + "/.git/config")
        try scratch.touch(scratch.top + "/a.py")

        let output = try GitRunner.run(["status", "--porcelain"], in: scratch.top)
        #expect(output.status == 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.marker), "the filter ran on the host")
        #expect(!output.stderr.contains("hostile-program-ran"), "the filter ran: \(output.stderr)")
    }

    @Test(
        "every git process runs under a host uid that is not root, in a user namespace of its own",
        .enabled(if: geteuid() == 0, "the host id lease is a root launcher's"))
    func gitRunsAsAnUnprivilegedHostIdentity() throws {
        let scratch = try Scratch()
        // An alias is a program git starts as its own child: it shows what git's children run as.
        let output = try GitRunner.run(
            ["-c", "alias.who=!cat /proc/self/uid_map; id -u; cat /proc/self/status", "who"], in: scratch.top)
        #expect(output.status == 0, "\(output.stderr)")
        let text = String(decoding: output.stdout, as: UTF8.self)
        let lines = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        // uid_map: `inside host count`; the line for the inside uid git runs as gives its host uid.
        let insideUID = lines.first { $0.count == 1 }.map { String($0[0]) }
        let mapping = lines.first { $0.count == 3 && String($0[0]) == insideUID }
        #expect(insideUID == "65534")
        let hostUID = mapping.flatMap { UInt32($0[1]) }
        #expect(hostUID != nil && hostUID != 0, "git ran as host uid \(String(describing: hostUID)): \(text)")
        #expect(text.contains("CapEff:\t0000000000000000"), "git held capabilities: \(text)")
        #expect(text.contains("NoNewPrivs:\t1"))
    }

    @Test("the repository is read-only to git unless the run commits: a read run cannot write .git")
    func readRunsCannotWriteTheRepository() throws {
        let scratch = try Scratch()
        let output = try GitRunner.run(
            ["-c", "alias.plant=!echo planted > .git/hooks/post-checkout", "plant"], in: scratch.top)
        #expect(output.status != 0)
        #expect(!FileManager.default.fileExists(atPath: scratch.top + "/.git/hooks/post-checkout"))
    }
}
