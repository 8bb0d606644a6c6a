import Foundation
import Git
import Support
import Testing

@Suite("GitPatch")
struct GitPatchTests {
    @Test("a diff of edits, additions and deletions applies back to the original")
    func diffRoundTrips() throws {
        let changes = [
            FileChange(path: "pkg/mod.py", before: "a = 1\nb = 2\n", after: "a = 1\nb = 3\n"),
            FileChange(path: "new.txt", before: nil, after: "hello\n"),
            FileChange(path: "gone.txt", before: "bye\n", after: nil),
        ]
        let patch = try GitPatch.diff(changes)
        #expect(patch.contains("diff --git a/pkg/mod.py b/pkg/mod.py"))
        #expect(patch.contains("-b = 2\n+b = 3\n"))
        #expect(patch.contains("new file mode"))
        #expect(patch.contains("deleted file mode"))
        let applied = try GitPatch.apply(patch, to: ["pkg/mod.py": "a = 1\nb = 2\n", "gone.txt": "bye\n"])
        #expect(Set(applied) == Set(changes))
    }

    @Test("no change, no diff")
    func emptyDiff() throws {
        #expect(try GitPatch.diff([FileChange(path: "x.py", before: "x\n", after: "x\n")]).isEmpty)
    }

    @Test("a patch that does not apply names git's complaint")
    func rejectsStalePatch() throws {
        let patch = try GitPatch.diff([FileChange(path: "m.py", before: "x = 1\n", after: "x = 2\n")])
        #expect(throws: SentinelError.self) { try GitPatch.apply(patch, to: ["m.py": "y = 5\n"]) }
    }

    @Test("paths that leave the tree are refused", arguments: ["/etc/passwd", "../x", "a/../../b", ".git/config", ""])
    func refusesOutsidePaths(path: String) {
        #expect(throws: SentinelError.self) { try GitPatch.checkRelative(path) }
    }

    @Test("a hostile diff cannot write outside the scratch tree")
    func hostileDiffRefused() throws {
        let patch = """
            diff --git a/../escape.txt b/../escape.txt
            new file mode 100644
            --- /dev/null
            +++ b/../escape.txt
            @@ -0,0 +1 @@
            +owned

            """
        #expect(throws: SentinelError.self) { try GitPatch.apply(patch, to: [:]) }
    }
}

@Suite("GitPatch added lines")
struct GitPatchAddedLinesTests {
    @Test("added lines are numbered in the new file, per file; deletions add none")
    func addedLines() throws {
        let before = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var lines = before.split(separator: "\n").map(String.init)
        lines[1] = "changed 2"
        lines.insert("inserted", at: 15)
        let after = lines.joined(separator: "\n") + "\n"
        let patch = try GitPatch.diff([
            FileChange(path: "a.py", before: before, after: after),
            FileChange(path: "new.py", before: nil, after: "x = 1\ny = 2\n"),
            FileChange(path: "gone.py", before: "z = 3\n", after: nil),
        ])
        let added = GitPatch.addedLines(patch)
        #expect(added["a.py"] == [2, 16])
        #expect(added["new.py"] == [1, 2])
        #expect(added["gone.py"] == nil)
        #expect(GitPatch.addedLines("") == [:])
    }
}

@Suite("GitPatch hostile links")
struct GitPatchHostileLinkTests {
    /// A patch (an LLM's answer, a proposal on disk) may declare a symbolic link: `git apply`
    /// makes one in the scratch tree, and reading it back by path would follow it to a host file
    /// whose content then travels on as the "new file" (into the workspace, the PR body).
    @Test("a patch that adds a symbolic link is refused, and no host file is read through it")
    func symbolicLinkRefused() throws {
        let marker = "HOST-MARKER-\(UUID().uuidString)"
        let host = NSTemporaryDirectory() + "gitpatch-host-\(UUID().uuidString)"
        try Data(marker.utf8).write(to: URL(fileURLWithPath: host))
        defer { try? FileManager.default.removeItem(atPath: host) }
        let patch = """
            diff --git a/leak.txt b/leak.txt
            new file mode 120000
            --- /dev/null
            +++ b/leak.txt
            @@ -0,0 +1 @@
            +\(host)
            \\ No newline at end of file

            """
        var changes: [FileChange]?
        let error = #expect(throws: SentinelError.self) { changes = try GitPatch.apply(patch, to: [:]) }
        #expect(changes?.contains { $0.after?.contains(marker) == true } != true, "host file read through the link")
        #expect(error?.message.contains("leak.txt") == true, "\(String(describing: error))")
    }
}

@Suite("GitIdentity")
struct GitIdentityTests {
    @Test("Name <email> parses; what git would refuse is refused in one line")
    func parsesAndRefuses() throws {
        let ada = try GitIdentity(parsing: "Ada Lovelace <ada@example.org>")
        #expect(ada.name == "Ada Lovelace" && ada.email == "ada@example.org" && ada.description == "Ada Lovelace <ada@example.org>")
        let refused = [
            "Ada Lovelace", "<ada@example.org>", "Ada <>", "Ada <a b@example.org>", "Ada\nEvil <a@example.org>",
            "Ada <a@example.org>\n", "Ada <a<b@example.org>", String(repeating: "a", count: 300) + " <a@example.org>",
        ]
        for text in refused {
            #expect(throws: SentinelError.self, "\(text.debugDescription)") { try GitIdentity(parsing: text) }
        }
        #expect(try GitIdentity.fromEnvironment(["GIT_AUTHOR_NAME": "Ada"]) == nil)
        #expect(
            try GitIdentity.fromEnvironment(["GIT_AUTHOR_NAME": "Ada", "GIT_AUTHOR_EMAIL": "ada@example.org"])
                == GitIdentity(name: "Ada", email: "ada@example.org"))
    }
}
