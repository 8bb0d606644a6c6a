/// Named groups in `metavariable-regex` expressions: Python spells them `(?P<NAME>...)`, ICU
/// (NSRegularExpression) `(?<NAME>...)`; groups named like metavariables bind them.
enum RegexGroupNames {
    /// `source` with every `(?P<` that opens a group rewritten to ICU's `(?<`.
    static func icuSpelling(_ source: String) -> String {
        var out = ""
        var escaped = false
        var rest = source[...]
        while let c = rest.first {
            if !escaped, c == "(", rest.hasPrefix("(?P<") {
                out += "(?<"
                rest = rest.dropFirst(4)
                continue
            }
            escaped = !escaped && c == "\\"
            out.append(c)
            rest = rest.dropFirst()
        }
        return out
    }

    /// Names of the groups `(?<NAME>` in an ICU expression that are metavariable names: an
    /// uppercase letter, then uppercase letters and digits (ICU allows no `_` in group names).
    static func metavariableGroups(in source: String) -> [String] {
        var names: [String] = []
        var escaped = false
        var rest = source[...]
        while let c = rest.first {
            if !escaped, c == "(", rest.hasPrefix("(?<"), let close = rest.firstIndex(of: ">") {
                let name = rest[rest.index(rest.startIndex, offsetBy: 3)..<close]
                if let first = name.first, first.isASCII, first.isUppercase,
                    name.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }), !names.contains(String(name))
                {
                    names.append(String(name))
                }
            }
            escaped = !escaped && c == "\\"
            rest = rest.dropFirst()
        }
        return names
    }
}
