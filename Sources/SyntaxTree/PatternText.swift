/// The text of a rule's pattern as its language's parser reads it.
public enum PatternText {
    /// `pattern` as UTF-8 with its leading blank lines dropped and the first line's indentation
    /// removed from every line: a pattern written indented in YAML parses like top-level code.
    /// Each line ends with a line feed.
    public static func dedent(_ pattern: String) -> [UInt8] {
        // Split as bytes: a String's split compares Characters (grapheme clusters), many times slower.
        var lines = Array(pattern.utf8).split(separator: 10, omittingEmptySubsequences: false).map { Array($0) }
        while let first = lines.first, first.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) {
            lines.removeFirst()
            if lines.isEmpty { break }
        }
        guard let first = lines.first else { return [] }
        let indent = first.prefix { $0 == 32 || $0 == 9 }
        var out: [UInt8] = []
        for line in lines {
            if line.starts(with: indent) { out += line.dropFirst(indent.count) } else { out += line }
            out.append(10)
        }
        return out
    }
}
