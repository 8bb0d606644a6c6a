import Foundation
import Git
import Heal
import LLM
import Support
import Testing

/// `LLMEdits`: SEARCH/REPLACE blocks and unified diffs in replies, turned into file changes.
@Suite struct LLMEditsTests {
    let calc = """
        def divide(a, b):
            return a / b


        def mean(values):
            return divide(sum(values), len(values))

        """
    var files: [String: String] { ["app/calc.py": calc, "README.md": "# calc\n"] }

    @Test func fencedBlockWithPathAbove() throws {
        let reply = """
            Guard against an empty list.

            app/calc.py
            ```python
            <<<<<<< SEARCH
            def mean(values):
                return divide(sum(values), len(values))
            =======
            def mean(values):
                if not values:
                    return 0.0
                return divide(sum(values), len(values))
            >>>>>>> REPLACE
            ```
            """
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes.count == 1)
        #expect(changes[0].path == "app/calc.py" && changes[0].before == calc)
        #expect(
            changes[0].after == calc.replacingOccurrences(of: "(values):\n", with: "(values):\n    if not values:\n        return 0.0\n"))
    }

    @Test func severalBlocksApplyInOrderAndMayShareAFile() throws {
        let reply = """
            ```
            app/calc.py
            <<<<<<< SEARCH
                return a / b
            =======
                if b == 0:
                    raise ValueError("b must not be 0")
                return a / b
            >>>>>>> REPLACE
            ```
            <<<<<<< SEARCH
                raise ValueError("b must not be 0")
            =======
                raise ZeroDivisionError("b must not be 0")
            >>>>>>> REPLACE

            **README.md**
            <<<<<<< SEARCH
            # calc
            =======
            # calc (safe division)
            >>>>>>> REPLACE
            """
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes.map(\.path) == ["app/calc.py", "README.md"])
        #expect(changes[0].after?.contains("    if b == 0:\n        raise ZeroDivisionError(\"b must not be 0\")\n") == true)
        #expect(changes[1].after == "# calc (safe division)\n")
    }

    @Test func whitespaceTolerantMatchKeepsTheFilesIndentation() throws {
        // The model dropped the function's indentation and added a blank line.
        let reply = """
            app/calc.py
            <<<<<<< SEARCH
            return a  /  b

            =======
            return a / b if b else 0.0
            >>>>>>> REPLACE
            """
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes.first?.after?.contains("def divide(a, b):\n    return a / b if b else 0.0\n\n") == true)
    }

    @Test func crlfFilesKeepTheirLineEnds() throws {
        let reply = "x.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n"
        let changes = try LLMEdits.changes(from: reply, files: ["x.py": "a = 1\r\nb = 2\r\n"])
        #expect(changes.first?.after == "a = 1\r\nb = 3\r\n")
        // A reply with CRLF line ends reads the same.
        let crlfReply = reply.replacingOccurrences(of: "\n", with: "\r\n")
        #expect(try LLMEdits.changes(from: crlfReply, files: ["x.py": "a = 1\nb = 2\n"]).first?.after == "a = 1\nb = 3\n")
    }

    @Test func emptySearchCreatesAFile() throws {
        let reply = "app/validate.py\n<<<<<<< SEARCH\n=======\ndef check(x):\n    return x\n>>>>>>> REPLACE\n"
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes == [FileChange(path: "app/validate.py", before: nil, after: "def check(x):\n    return x\n")])
    }

    @Test(arguments: [
        (
            "app/calc.py\n<<<<<<< SEARCH\n    return a // b\n=======\n    pass\n>>>>>>> REPLACE\n",
            "block 1 (app/calc.py): SEARCH does not match the file (its first line: `return a // b`)"
        ),
        (
            "README.md\n<<<<<<< SEARCH\n# calc\n=======\n# x\n>>>>>>> REPLACE\napp/calc.py\n<<<<<<< SEARCH\n\n\n=======\nx\n>>>>>>> REPLACE\n",
            "block 2 (app/calc.py): SEARCH is empty but the file exists"
        ),
        ("app/calc.py\n<<<<<<< SEARCH\n\n\ndef\n=======\n>>>>>>> REPLACE\n", "block 1 (app/calc.py): SEARCH does not match"),
        ("app/other.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", "block 1 (app/other.py): not one of the files shown"),
        ("/etc/passwd\n<<<<<<< SEARCH\n=======\nroot\n>>>>>>> REPLACE\n", "block 1 (/etc/passwd): not a path inside the repository"),
        ("../up.py\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n", "block 1 (../up.py): not a path inside the repository"),
        (".git/hooks/pre-commit\n<<<<<<< SEARCH\n=======\nx\n>>>>>>> REPLACE\n", "block 1 (.git/hooks/pre-commit): not a path"),
        ("Here is the fix:\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n", "block 1: no file path on the line before"),
        ("app/calc.py\n<<<<<<< SEARCH\n    return a / b\n=======\n    return 0\n", "block 1 (app/calc.py): not closed"),
        ("I am not sure what to change.", "the reply holds neither SEARCH/REPLACE blocks nor a unified diff"),
        ("app/calc.py\n<<<<<<< SEARCH\n    return a / b\n=======\n    return a / b\n>>>>>>> REPLACE\n", "change nothing"),
    ])
    func unusableRepliesSayWhichBlockFailed(reply: String, message: String) throws {
        let error = try #require(throws: SentinelError.self) { try LLMEdits.changes(from: reply, files: files) }
        #expect(error.code == .llmEdits)
        #expect(error.message.contains(message), "\(error.message)")
    }

    @Test func ambiguousSearchIsRefused() throws {
        let text = "x = 1\ny = 2\nx = 1\n"
        let reply = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n"
        let error = try #require(throws: SentinelError.self) { try LLMEdits.changes(from: reply, files: ["a.py": text]) }
        #expect(error.message == "block 1 (a.py): SEARCH matches 2 places; include more surrounding lines so that it matches one")
        // Whitespace-tolerant matches must be unique too.
        let loose = "a.py\n<<<<<<< SEARCH\nx=1\n=======\nx = 3\n>>>>>>> REPLACE\n"
        let spaced = "x  =  1\ny = 2\n  x = 1\n"
        let fuzzy = try #require(throws: SentinelError.self) {
            try LLMEdits.changes(from: loose.replacingOccurrences(of: "x=1", with: "x = 1 "), files: ["a.py": spaced])
        }
        #expect(fuzzy.message.contains("matches 2 places when whitespace is ignored"))
    }

    @Test func fencedGitDiffApplies() throws {
        let reply = """
            ```diff
            diff --git a/app/calc.py b/app/calc.py
            --- a/app/calc.py
            +++ b/app/calc.py
            @@ -1,2 +1,4 @@
             def divide(a, b):
            +    if b == 0:
            +        return 0.0
                 return a / b
            ```
            """
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes.map(\.path) == ["app/calc.py"])
        #expect(changes[0].after?.hasPrefix("def divide(a, b):\n    if b == 0:\n        return 0.0\n    return a / b\n") == true)
    }

    @Test func bareDiffWithoutPrefixesAndMiscountedHunkApplies() throws {
        // No a/ b/ prefixes, wrong counts, the blank context line lost its space.
        let reply = """
            The fix:
            --- app/calc.py
            +++ app/calc.py
            @@ -2,9 +2,9 @@
                 return a / b

            -
            +# divide guards nothing; mean does
             def mean(values):
            """
        let changes = try LLMEdits.changes(from: reply, files: files)
        #expect(changes.first?.after?.contains("    return a / b\n\n# divide guards nothing; mean does\ndef mean") == true)
    }

    @Test func diffCreatingAFile() throws {
        let reply = "```diff\n--- /dev/null\n+++ b/app/util.py\n@@ -0,0 +1,1 @@\n+X = 1\n```\n"
        #expect(try LLMEdits.changes(from: reply, files: files) == [FileChange(path: "app/util.py", before: nil, after: "X = 1\n")])
    }

    @Test(arguments: [
        (
            "```diff\n--- a/app/calc.py\n+++ b/app/calc.py\n@@ -1,2 +1,2 @@\n def divide(x, y):\n-    return x / y\n+    return 0\n```\n",
            "unified diff does not apply: git apply: "
        ),
        (
            "```diff\n--- a/app/nope.py\n+++ b/app/nope.py\n@@ -1 +1 @@\n-a\n+b\n```\n",
            "unified diff (app/nope.py): not one of the files shown"
        ),
        (
            "```diff\n--- a/../../etc/passwd\n+++ b/../../etc/passwd\n@@ -1 +1 @@\n-a\n+b\n```\n",
            "unified diff (../../etc/passwd): not a path inside the repository"
        ),
        ("```diff\n--- /dev/null\n+++ b/.git/config\n@@ -0,0 +1 @@\n+x\n```\n", "unified diff (.git/config): not a path"),
    ])
    func diffsThatDoNotApplyNameTheFile(reply: String, message: String) throws {
        let error = try #require(throws: SentinelError.self) { try LLMEdits.changes(from: reply, files: files) }
        #expect(error.code == .llmEdits)
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test func testEditsAreFlagged() throws {
        let paths = [
            "tests/test_calc.py", "app/tests/helpers.py", "test_calc.py", "app/calc_test.py", "conftest.py", "pkg/conftest.py",
            "pytest.ini", "web/app.test.js", "app/calc.py", "app/testing_utils.py", "src/contest.py", "README.md",
        ]
        let changes = paths.map { FileChange(path: $0, before: "a", after: "b") }
        #expect(
            LLMEdits.touchesTests(changes) == [
                "tests/test_calc.py", "app/tests/helpers.py", "test_calc.py", "app/calc_test.py", "conftest.py",
                "pkg/conftest.py", "pytest.ini", "web/app.test.js",
            ])
    }
}
