import Findings
import SourcePositions

/// Bandit's `code` field: source lines around a finding, each prefixed with its line number and
/// one space (`"10     return pickle.loads(blob)\n"`).
struct BanditCode {
    /// Line number → text without the prefix.
    private(set) var lines: [Int: Substring] = [:]

    init(_ code: String) {
        // Splitting the String on "\n" would keep a CRLF code block as one line ("\r\n" is one
        // Character); LineIndex ends lines at LF, CRLF and CR alike.
        let index = LineIndex(code)
        for line in 1...index.lineCount {
            let raw = Substring(index.text(ofLine: line))
            let digits = raw.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let number = Int(digits) else { continue }
            var text = raw.dropFirst(digits.count)
            if text.first == " " { text = text.dropFirst() }
            lines[number] = text
        }
    }

    /// The lines `first...last` joined with newlines, verbatim; `nil` when Bandit showed none of
    /// them.
    func lines(from first: Int, through last: Int) -> String? {
        let selected = (first...max(first, last)).compactMap { lines[$0] }
        return selected.isEmpty ? nil : selected.joined(separator: "\n")
    }

    /// The 1-based code-point column of byte `offset` (Python's AST offsets count UTF-8 bytes)
    /// on `line`; `offset + 1` when Bandit did not show that line.
    func column(utf8Offset offset: Int, line: Int) -> Int {
        guard let text = lines[line] else { return offset + 1 }
        return SourceColumn.column(utf8Offset: offset, in: Array(text.utf8))
    }
}
