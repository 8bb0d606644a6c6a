/// Text helpers for tool output.
enum ToolText {
    /// `text` on one line: runs of whitespace (newlines included) become one space.
    static func flattened(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The CWE ids named in `texts` (`"CWE-78: OS Command Injection"`, `"cwe-502"`, `"79"`).
    static func cweIds(_ texts: [String]) -> [Int] {
        var ids: [Int] = []
        for text in texts {
            let upper = text.uppercased()
            let rest = upper.range(of: "CWE-").map { upper[$0.upperBound...] } ?? upper[...]
            let digits = rest.drop { $0 == " " }.prefix { $0.isASCII && $0.isNumber }
            if let id = Int(digits), id > 0, !ids.contains(id) { ids.append(id) }
        }
        return ids
    }
}
