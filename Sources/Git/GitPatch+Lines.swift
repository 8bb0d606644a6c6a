extension GitPatch {
    /// The text of every line a unified diff adds or removes, without its `+`/`-` (file headers
    /// excluded): what a patch changes, for counting and for reading.
    public static func changedLines(_ patch: String) -> [Substring] {
        patch.split(separator: "\n").filter {
            ($0.hasPrefix("+") && !$0.hasPrefix("+++")) || ($0.hasPrefix("-") && !$0.hasPrefix("---"))
        }.map { $0.dropFirst() }
    }

    /// The paths a unified diff touches, old and new sides (`a/` and `b/` stripped, `/dev/null`
    /// left out), in order of appearance.
    public static func paths(in patch: String) -> [String] {
        var paths: [String] = []
        for text in patch.split(separator: "\n") where text.hasPrefix("--- ") || text.hasPrefix("+++ ") {
            let name = text.dropFirst(4)
            guard name.hasPrefix("a/") || name.hasPrefix("b/") else { continue }
            let path = String(name.dropFirst(2))
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The lines a unified diff adds, by the new file's path and 1-based line number in the new
    /// file (what a coverage run of the patched tree reports). Deleted files have none.
    public static func addedLines(_ patch: String) -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        var file: String?
        var line = 0
        var inHunk = false
        for text in patch.split(separator: "\n", omittingEmptySubsequences: false) {
            if text.hasPrefix("diff --git ") {
                file = nil
                inHunk = false
            } else if !inHunk, text.hasPrefix("+++ ") {
                let name = text.dropFirst(4)
                file = name.hasPrefix("b/") ? String(name.dropFirst(2)) : nil
            } else if text.hasPrefix("@@ ") {
                // "@@ -a,b +c,d @@": the new side starts at line c.
                let newSide = text.split(separator: " ").first { $0.hasPrefix("+") }
                line = newSide.flatMap { Int($0.dropFirst().split(separator: ",").first ?? "") } ?? 0
                inHunk = true
            } else if inHunk, let current = file {
                if text.hasPrefix("+") {
                    result[current, default: []].append(line)
                    line += 1
                } else if text.hasPrefix(" ") {
                    line += 1
                } else if !text.hasPrefix("-") && !text.hasPrefix("\\") {
                    inHunk = false
                }
            }
        }
        return result
    }
}
