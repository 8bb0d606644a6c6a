import Testing

@testable import Findings

@Suite struct ChangedLinesTests {
    static let diff = """
        diff --git a/app/db.py b/app/db.py
        index 1111111..2222222 100644
        --- a/app/db.py
        +++ b/app/db.py
        @@ -10,0 +11,2 @@ def get_user(id):
        +    q = "SELECT" + id
        +    cursor.execute(q)
        @@ -30 +32 @@ def other():
        -    old()
        +    new()
        @@ -40,3 +41,0 @@ def gone():
        diff --git a/old.py b/old.py
        deleted file mode 100644
        --- a/old.py
        +++ /dev/null
        @@ -1,2 +0,0 @@
        -x = 1
        -y = 2
        diff --git "a/caf\\303\\251 x.py" "b/caf\\303\\251 x.py"
        --- "a/caf\\303\\251 x.py"
        +++ "b/caf\\303\\251 x.py"
        @@ -1 +1 @@
        -a
        +b
        """

    @Test func parsesAddedLinesPerFile() {
        let changed = ChangedLines(unifiedDiff: Self.diff)
        #expect(changed.lines["app/db.py"] == [11, 12, 32])
        #expect(changed.lines["old.py"] == nil)
        #expect(changed.lines["café x.py"] == [1])
    }

    @Test(arguments: [(11, true), (12, true), (13, false), (32, true), (31, false), (1, false)])
    func keepsOnlyFindingsOnChangedLines(line: Int, kept: Bool) {
        let changed = ChangedLines(unifiedDiff: Self.diff)
        let finding = Finding(ruleId: "r", severity: .high, message: "m", location: Location(file: "app/db.py", startLine: line))
        #expect(changed.contains(finding) == kept)
    }

    @Test func multiLineFindingsAndOtherKinds() {
        let changed = ChangedLines(unifiedDiff: Self.diff)
        let spanning = Finding(ruleId: "r", severity: .high, message: "m", location: Location(file: "app/db.py", startLine: 8, endLine: 11))
        let otherFile = Finding(ruleId: "r", severity: .high, message: "m", location: Location(file: "lib.py", startLine: 11))
        let wholeFile = Finding(ruleId: "r", severity: .high, message: "m", location: Location(file: "app/db.py"))
        let web = Finding(ruleId: "r", severity: .high, message: "m", location: Location(url: "http://x/"))
        #expect(changed.filter([spanning, otherFile, wholeFile, web]) == [spanning, wholeFile, web])
    }

    @Test(arguments: [
        "@@ -1 +99999999999999999999 @@", "@@ -1 +9223372036854775807,9 @@", "@@ -1 +1,99999999999 @@", "@@ garbage @@", "@@ -1 +x,2 @@",
    ])
    func corruptHunksAreIgnored(header: String) {
        let changed = ChangedLines(unifiedDiff: "+++ b/a.py\n\(header)\n")
        #expect(changed.lines["a.py"] == [])
    }

    @Test func emptyDiffKeepsNothingFromFiles() {
        let finding = Finding(ruleId: "r", severity: .high, message: "m", location: Location(file: "a.py", startLine: 1))
        #expect(ChangedLines(unifiedDiff: "").filter([finding]).isEmpty)
    }
}
