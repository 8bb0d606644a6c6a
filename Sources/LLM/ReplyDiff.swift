/// A unified diff in a model's reply: found in ```diff fences or bare, and tidied the way
/// models get diffs wrong: `a/` and `b/` prefixes added where missing, and hunk headers
/// recounted from the hunk's lines (models miscount them, and git refuses a miscounted hunk).
enum ReplyDiff {
    /// The diff text of `reply`: every fenced block that reads as a diff, else everything from
    /// the first diff header on; nil when there is none.
    static func extract(_ reply: String) -> String? {
        let lines = TextLines.splitDroppingCR(reply)
        var fenced: [String] = []
        var index = 0
        while index < lines.count {
            guard let fence = fenceRun(lines[index]) else {
                index += 1
                continue
            }
            let info = lines[index].dropFirst(fence.count).trimmingCharacters(in: .whitespaces).lowercased()
            var body: [String] = []
            index += 1
            while index < lines.count, !closes(lines[index], fence) {
                body.append(lines[index])
                index += 1
            }
            index += 1
            if ["diff", "patch", "udiff"].contains(info) || headerIndex(body) != nil { fenced += body }
        }
        if !fenced.isEmpty { return fenced.joined(separator: "\n") + "\n" }
        guard let start = headerIndex(lines) else { return nil }
        return lines[start...].filter { fenceRun($0) == nil }.joined(separator: "\n") + "\n"
    }

    /// The diff with prefixes added and hunk counts recomputed.
    static func normalized(_ diff: String) -> String {
        var lines = TextLines.split(diff)
        while lines.last?.isEmpty == true { lines.removeLast() }
        var out: [String] = []
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if isFileHeader(lines, index) {
                out.append("--- " + prefixed(String(line.dropFirst(4)), "a/"))
                out.append("+++ " + prefixed(String(lines[index + 1].dropFirst(4)), "b/"))
                index += 2
            } else if line.hasPrefix("diff --git ") {
                let names = line.dropFirst("diff --git ".count).split(separator: " ").map(String.init)
                out.append(names.count == 2 ? "diff --git \(prefixed(names[0], "a/")) \(prefixed(names[1], "b/"))" : line)
                index += 1
            } else if line.hasPrefix("@@") {
                var body: [(text: String, blank: Bool)] = []
                index += 1
                while index < lines.count, !lines[index].hasPrefix("@@"), !lines[index].hasPrefix("diff --git "),
                    !isFileHeader(lines, index)
                {
                    let next = lines[index]
                    guard next.isEmpty || " +-\\".contains(next.first!) else { break }
                    body.append((next.isEmpty ? " " : next, next.isEmpty))  // a blank context line that lost its space
                    index += 1
                }
                // Empty lines after the last hunk line are separators, unless the header counts them.
                let declared = declaredOldCount(line)
                while body.last?.blank == true, oldCount(body.map(\.text)) > declared ?? 0 { body.removeLast() }
                out.append(recounted(line, body.map(\.text)))
                out += body.map(\.text)
            } else {
                out.append(line)
                index += 1
            }
        }
        return out.joined(separator: "\n") + "\n"
    }

    /// The paths the file headers name (without `a/` and `b/`), `/dev/null` left out.
    static func paths(_ normalizedDiff: String) -> (old: [String], new: [String]) {
        let lines = TextLines.split(normalizedDiff)
        var old: [String] = []
        var new: [String] = []
        for index in lines.indices where isFileHeader(lines, index) {
            let from = headerPath(lines[index])
            let to = headerPath(lines[index + 1])
            if from != "/dev/null" { old.append(String(from.dropFirst(2))) }
            if to != "/dev/null" { new.append(String(to.dropFirst(2))) }
        }
        return (old, new)
    }

    /// The `b` of `@@ -a,b +c,d @@` (1 when `,b` is left out), nil when unreadable.
    private static func declaredOldCount(_ header: String) -> Int? {
        let parts = header.split(separator: " ")
        guard parts.count >= 2, parts[1].hasPrefix("-") else { return nil }
        let numbers = parts[1].dropFirst().split(separator: ",")
        return numbers.count == 2 ? Int(numbers[1]) : 1
    }

    private static func oldCount(_ body: [String]) -> Int {
        body.filter { $0.hasPrefix(" ") || $0.hasPrefix("-") }.count
    }

    /// `@@ -a,b +c,d @@ rest` with `b` and `d` counted from `body`; unchanged when unreadable.
    private static func recounted(_ header: String, _ body: [String]) -> String {
        let parts = header.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
        guard parts.count >= 3, parts[0] == "@@", parts[1].hasPrefix("-"), parts[2].hasPrefix("+"),
            let oldStart = Int(parts[1].dropFirst().split(separator: ",")[0]),
            let newStart = Int(parts[2].dropFirst().split(separator: ",")[0])
        else { return header }
        let old = oldCount(body)
        let new = body.filter { $0.hasPrefix(" ") || $0.hasPrefix("+") }.count
        var rest = parts.count == 4 ? String(parts[3]) : "@@"
        if !rest.hasPrefix("@@") { rest = "@@ " + rest }
        return "@@ -\(oldStart),\(old) +\(newStart),\(new) \(rest)"
    }

    /// `--- X` directly followed by `+++ Y`.
    private static func isFileHeader(_ lines: [String], _ index: Int) -> Bool {
        index + 1 < lines.count && lines[index].hasPrefix("--- ") && lines[index + 1].hasPrefix("+++ ")
    }

    private static func headerIndex(_ lines: [String]) -> Int? {
        lines.indices.first { lines[$0].hasPrefix("diff --git ") || isFileHeader(lines, $0) }
    }

    /// The path of a `---`/`+++` line without a trailing tab and timestamp.
    private static func headerPath(_ line: String) -> String {
        let name = line.dropFirst(4).split(separator: "\t", maxSplits: 1).first.map(String.init) ?? ""
        return name.trimmingCharacters(in: .whitespaces)
    }

    private static func prefixed(_ raw: String, _ prefix: String) -> String {
        let name = raw.split(separator: "\t", maxSplits: 1).first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? ""
        if name == "/dev/null" || name.hasPrefix(prefix) { return name }
        return prefix + (name.hasPrefix("./") ? String(name.dropFirst(2)) : name)
    }

    private static func fenceRun(_ line: String) -> String? {
        let run = line.prefix { $0 == "`" }
        let tildes = line.prefix { $0 == "~" }
        if run.count >= 3 { return String(run) }
        if tildes.count >= 3 { return String(tildes) }
        return nil
    }

    private static func closes(_ line: String, _ fence: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard let first = fence.first, line.first == first else { return false }
        return trimmed.count >= fence.count && trimmed.allSatisfy { $0 == first }
    }
}
