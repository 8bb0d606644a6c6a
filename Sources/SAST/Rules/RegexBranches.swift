/// The top-level alternatives of an ICU expression, each a whole expression of its own, for the
/// question "does the text hold a match anywhere": `A|B` holds a match exactly where `A` or `B`
/// does. Searched one at a time, each alternative brings its own ``RegexLiterals`` (what all of
/// its matches contain), where the whole expression's requirement is only the weakest set of
/// one string per alternative. A `project-not-regex` with an alternative on Python imports
/// (`from|import`) was otherwise run, backtracking on every line, over every Python file.
///
/// The split is refused (nil) wherever cutting could change what an alternative means: one
/// alternative only, comment mode (`(?x)`: a `#` comment may hold a `|`), quoting (`\Q…\E`),
/// backreferences (group numbers change), comment groups, flags switched on after the start of the expression
/// without a group of their own (`a(?i)b|c`: they reach into the next alternative), or a bracket
/// that does not close.
enum RegexBranches {
    /// The alternatives of `pattern`, each with the flags the expression starts with, or nil.
    static func split(_ pattern: String) -> [String]? {
        let scalars = Array(pattern.unicodeScalars)
        var at = 0
        // Flags for the whole expression: `(?im)` at the very start, before anything else.
        var prefix = ""
        while let end = flagsGroup(scalars, at) {
            let flags = scalars[(at + 2)..<end]
            if flags.contains("x") { return nil }
            prefix += String(String.UnicodeScalarView(scalars[at...end]))
            at = end + 1
        }
        var branches: [String] = []
        var current = String.UnicodeScalarView()
        var depth = 0
        var classDepth = 0
        while at < scalars.count {
            let c = scalars[at]
            if c == "\\" {
                guard at + 1 < scalars.count else { return nil }
                let escaped = scalars[at + 1]
                // Quoting, backreferences by number or by name.
                if escaped == "Q" || escaped == "k" || ("1"..."9").contains(escaped) { return nil }
                current.append(c)
                current.append(escaped)
                at += 2
                continue
            }
            if classDepth > 0 {
                if c == "[" { classDepth += 1 } else if c == "]" { classDepth -= 1 }
                current.append(c)
                at += 1
                continue
            }
            switch c {
            case "[":
                classDepth = 1
                current.append(c)
                at += 1
                // A `]` first in a set (or after `^`) is a member, not the end.
                if at < scalars.count, scalars[at] == "^" {
                    current.append(scalars[at])
                    at += 1
                }
                if at < scalars.count, scalars[at] == "]" {
                    current.append(scalars[at])
                    at += 1
                }
                continue
            case "(":
                // Flags for the rest of the expression, or a comment (which may hold anything).
                if flagsGroup(scalars, at) != nil || (at + 2 < scalars.count && scalars[at + 1] == "?" && scalars[at + 2] == "#") {
                    return nil
                }
                depth += 1
            case ")":
                depth -= 1
                if depth < 0 { return nil }
            case "|" where depth == 0:
                branches.append(prefix + String(current))
                current = String.UnicodeScalarView()
                at += 1
                continue
            default:
                break
            }
            current.append(c)
            at += 1
        }
        guard depth == 0, classDepth == 0, !branches.isEmpty else { return nil }
        branches.append(prefix + String(current))
        return branches
    }

    /// The index of the `)` closing a flags group (`(?i)`, `(?m-s)`) that starts at `at`, or nil.
    private static func flagsGroup(_ scalars: [Unicode.Scalar], _ at: Int) -> Int? {
        guard at + 2 < scalars.count, scalars[at] == "(", scalars[at + 1] == "?" else { return nil }
        var end = at + 2
        while end < scalars.count, ("a"..."z").contains(scalars[end]) || ("A"..."Z").contains(scalars[end]) || scalars[end] == "-" {
            end += 1
        }
        guard end > at + 2, end < scalars.count, scalars[end] == ")" else { return nil }
        return end
    }
}
