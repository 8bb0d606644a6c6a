import Git
import Testing

@testable import Heal
@testable import Signals

/// What a remembered fix may change when memory replays it (issue 53, R8): only files that exist
/// and that the signal at hand is in; judged on the patch's text before it is applied, and on
/// what git applied.
@Suite("Replay scope")
struct ReplayScopeTests {
    static let scope = ReplayScope(files: ["app.py", "lib/util.py"])
    static let edit = """
        diff --git a/app.py b/app.py
        index 1111111..2222222 100644
        --- a/app.py
        +++ b/app.py
        @@ -1,3 +1,3 @@
         import yaml
        --- a comment the fix drops (a removed line that looks like a header)
        +x = yaml.safe_load(data)
         print(x)

        """

    @Test(
        "what a remembered patch may not do, read from its text",
        arguments: [
            (edit, nil),
            (
                "diff --git a/sitecustomize.py b/sitecustomize.py\nnew file mode 100644\nindex 0000000..1111111\n--- /dev/null\n"
                    + "+++ b/sitecustomize.py\n@@ -0,0 +1 @@\n+import os\n",
                "it adds sitecustomize.py"
            ),
            ("diff --git a/app.py b/app.py\nnew file mode 100644\nindex 0000000..e69de29\n", "it adds app.py"),
            ("--- /dev/null\n+++ b/app.py\n@@ -0,0 +1 @@\n+x = 1\n", "it adds app.py"),
            (
                "diff --git a/app.py b/app.py\ndeleted file mode 100644\n--- a/app.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n",
                "it deletes app.py"
            ),
            (
                "diff --git a/lib/util.py b/app.py\nsimilarity index 100%\nrename from lib/util.py\nrename to app.py\n",
                "it renames or copies app.py"
            ),
            ("diff --git a/app.py b/app.py\nold mode 100644\nnew mode 100755\n", "it changes the mode of app.py"),
            (
                "diff --git a/app.py b/app.py\nindex 1..2 100644\nGIT binary patch\nliteral 1\nIcmZo*00001\n",
                "it changes app.py as binary data"
            ),
            (
                edit + "diff --git a/setup.py b/setup.py\n--- a/setup.py\n+++ b/setup.py\n@@ -1 +1 @@\n-a\n+b\n",
                "it changes setup.py, which the signal is not in"
            ),
            (
                "--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@\n-a\n+b\n--- a/.bashrc\n+++ b/.bashrc\n@@ -1 +1 @@\n-a\n+b\n",
                "it changes .bashrc, which the signal is not in"
            ),
            ("--- app.py\n+++ app.py\n@@ -1 +1 @@\n-a\n+b\n", "it names 'app.py', not a/PATH"),
            ("diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -1 +1 @@ x\n-a\n+b\n", nil),
            (
                "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n@@ -x +1 @@\n-a\n+b\n",
                "its hunk header '@@ -x +1 @@' is not one git writes"
            ),
        ] as [(String, String?)])
    func textRefusals(patch: String, refusal: String?) {
        #expect(Self.scope.refusal(of: patch) == refusal)
    }

    @Test("what git applied: an added, deleted or out-of-scope file is refused")
    func appliedRefusals() {
        #expect(Self.scope.refusal(of: [FileChange(path: "app.py", before: "a", after: "b")]) == nil)
        #expect(Self.scope.refusal(of: [FileChange(path: "app.py", before: nil, after: "b")]) == "it adds app.py")
        #expect(Self.scope.refusal(of: [FileChange(path: "lib/util.py", before: "a", after: nil)]) == "it deletes lib/util.py")
        #expect(
            Self.scope.refusal(of: [FileChange(path: "setup.py", before: "a", after: "b")])
                == "it changes setup.py, which the signal is not in")
    }

    @Test("a signal's scope: its locations, its manifest, and the code its failing tests ran")
    func signalScope() {
        var signal = Signal(
            kind: .testFailure, source: "pytest", message: "m", locations: [Signal.Location(file: "tests/test_app.py", line: 3)])
        #expect(ReplayScope(signal: signal, executed: ["app.py"]).files == ["tests/test_app.py", "app.py"])
        signal.dependency = Signal.Dependency(
            ecosystem: "PyPI", package: "pyyaml", installed: "5.3", fixedVersions: ["5.4"], manifest: "requirements.txt")
        #expect(ReplayScope(signal: signal, executed: []).files == ["tests/test_app.py", "requirements.txt"])
    }
}
