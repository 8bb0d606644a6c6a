import Autonomy
import Foundation
import Store
import Testing

/// Issue 78, W5: `proposals show` (run as root by whoever reviews) printed a proposal's PR text
/// and patch raw, so a comment in a healed repository (`ESC ] 52` writes the clipboard, `ESC ] 0`
/// and `ESC k` the title) reached the reviewer's terminal. Both are shown through
/// `DisplayText.multiline`: their lines and tabs as they are, every other control visible.
@Suite("proposals show")
struct ProposalsShowCLITests {
    static let body = Data(
        "# Fix \u{1B}]0;owned\u{7}yaml.load\n\nSee \u{1B}]52;c;cm0gLXJmIH4=\u{7}the comment.\n\u{1B}kpwn\u{1B}\\\n::add-mask::x\n"
            .utf8)
    static let shownBody = #"""
        # Fix \x1b]0;owned\x07yaml.load

        See \x1b]52;c;cm0gLXJmIH4=\x07the comment.
        \x1bkpwn\x1b\
        \x3a:add-mask::x


        """#
    // A tab kept; a carriage return, the C1 CSI (as U+009B and as the overlong C0 9B, which reads
    // as two U+FFFD), a bidi override, DECRQCRA and DECSNLS all visible, none acting.
    static let patch =
        Data("--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-# \u{1B}]2;title\u{1B}\\\tx\r\n+# \u{9B}31m \u{202E}cba ".utf8)
        + Data([0xC0, 0x9B]) + Data(" \u{1B}[1;1;1;1;1;1*y\u{1B}[24*|\n".utf8)
    static let shownPatch = """
        --- a/app.py
        +++ b/app.py
        @@ -1 +1 @@
        -# \\x1b]2;title\\x1b\\\tx\\x0d
        +# \\x9b31m \\u{202e}cba \u{FFFD}\u{FFFD} \\x1b[1;1;1;1;1;1*y\\x1b[24*|

        """

    @Test("the PR text and the patch reach the terminal as text: exactly what a reader should see, no control")
    func hostileTextIsShownNotActedOn() throws {
        let root = try HealCLITests.Scratch.makeDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = StateDirectory(path: root + "/home")
        try state.create()
        let directory = root + "/proposal"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try Self.body.write(to: URL(fileURLWithPath: directory + "/PR.md"))
        try Self.patch.write(to: URL(fileURLWithPath: directory + "/patch.diff"))
        try AutonomyStore(state: state).enqueue(
            QueuedProposal(
                id: "abc000000001", repository: root, status: .pending, created: "2026-11-29T00:00:00Z", decided: nil,
                reason: nil, branch: "sentinel/fix/x\u{1B}]2;b\u{7}", title: "t\u{1B}]0;owned\u{7}", action: .ruleFix,
                fingerprint: "f", directory: directory, commit: nil, pullRequest: nil))
        var environment = ProcessInfo.processInfo.environment
        environment["SENTINEL_HOME"] = state.path
        let show = try CLI.run(["proposals", "show", "abc000"], environment: environment)
        #expect(show.status == 0, "\(show.stderr)")
        let header = """
            id: abc000000001
            status: pending
            repository: \(root)
            branch: sentinel/fix/x\\x1b]2;b\\x07
            action: rule-fix
            created: 2026-11-29T00:00:00Z
            directory: \(directory)

            """
        #expect(show.stdout == header + Self.shownBody + Self.shownPatch)
        let list = try CLI.run(["proposals", "list"], environment: environment)
        #expect(list.stdout == "abc000000001  pending  2026-11-29T00:00:00Z  sentinel/fix/x\\x1b]2;b\\x07  t\\x1b]0;owned\\x07\n")
    }
}
