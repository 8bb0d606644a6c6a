import Documents

/// The metavariables a `fix:` template names and those a rule document can bind, read from the
/// text as written: the loader refuses a template naming one that nothing binds.
enum FixMetavariables {
    /// Keys whose text binds nothing: the fix itself, the message, the metadata.
    private static let inert: Set<String> = ["fix", "fix-imports", "message", "metadata", "id", "references"]

    /// `$X` and `$...X` names in `text` (as `$X`, `$...X`), in order of appearance.
    static func named(in text: String) -> [String] {
        var out: [String] = []
        let s = Array(text.unicodeScalars)
        var i = 0
        while i < s.count {
            guard s[i] == "$" else {
                i += 1
                continue
            }
            var j = i + 1
            var run = false
            if j + 2 < s.count, s[j] == ".", s[j + 1] == ".", s[j + 2] == "." {
                run = true
                j += 3
            }
            let start = j
            while j < s.count, s[j] == "_" || ("A"..."Z").contains(s[j]) || (start < j && ("0"..."9").contains(s[j])) { j += 1 }
            if j > start {
                var name = String.UnicodeScalarView()
                name.append(contentsOf: s[start..<j])
                out.append((run ? "$..." : "$") + String(name))
            }
            i = max(j, i + 1)
        }
        return out
    }

    /// `text` with each metavariable written as a plain identifier (`$ALL` → `_ALL`) and each run
    /// as an unpacked one (`$...ARGS` → `*_ARGS` in Python, `..._ARGS` in JavaScript, which may
    /// stand among keywords or object members), so a template that glues a metavariable to a name
    /// (`yaml.safe_load$ALL`) parses as the code it will become.
    static func placeholders(in text: String, run: String) -> String {
        var out = ""
        let s = Array(text.unicodeScalars)
        var i = 0
        while i < s.count {
            if s[i] == "$" {
                var j = i + 1
                let isRun = j + 2 < s.count && s[j] == "." && s[j + 1] == "." && s[j + 2] == "."
                if isRun { j += 3 }
                if j < s.count, s[j] == "_" || ("A"..."Z").contains(s[j]) {
                    out += (isRun ? run : "") + "_"
                    i = j
                    continue
                }
            }
            out.unicodeScalars.append(s[i])
            i += 1
        }
        return out
    }

    /// Every metavariable the document's patterns, regexes (named groups) and sets mention.
    static func bound(by document: DocumentNode) -> Set<String> {
        var out = Set<String>()
        func visit(_ node: DocumentNode) {
            if let text = node.scalarText {
                out.formUnion(named(in: text))
                out.formUnion(groupNames(in: text))
            }
            for member in node.members where !inert.contains(member.key) { visit(member.value) }
            for element in node.elements { visit(element) }
        }
        visit(document)
        return out
    }

    /// `(?P<NAME>` and `(?<NAME>` groups of a regex, as the `$NAME` they bind.
    private static func groupNames(in text: String) -> [String] {
        var out: [String] = []
        var rest = Substring(text)
        while let open = rest.range(of: "(?") {
            var after = rest[open.upperBound...]
            if after.hasPrefix("P") { after = after.dropFirst() }
            if after.hasPrefix("<"), let close = after.firstIndex(of: ">") {
                let name = after[after.index(after: after.startIndex)..<close]
                if !name.isEmpty, name.allSatisfy({ $0 == "_" || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }) {
                    out.append("$" + name)
                }
            }
            rest = rest[open.upperBound...]
        }
        return out
    }
}
