import SourcePositions
import Support

extension Fix {
    /// `source` with this fix's replacements for the finding's own file (`file == nil`) applied;
    /// replacements naming another file are left for that file.
    ///
    /// Regions are read the way findings write them: 1-based lines, where LF, CRLF and a lone CR
    /// each end a line, and 1-based columns counted in Unicode code points, the end column just
    /// past the region. All regions refer to the original `source`, so their order in
    /// `replacements` does not matter; insertions at one point keep their order.
    /// - Throws: `SentinelError(.invalidInput)` when a region lies outside `source`, ends before it
    ///   starts, or overlaps another.
    public func apply(to source: String) throws(SentinelError) -> String {
        let bytes = Array(source.utf8)
        let lines = LineIndex(bytes)
        var edits: [(start: Int, end: Int, order: Int, text: String)] = []
        for (order, replacement) in replacements.enumerated() where replacement.file == nil {
            let start = try Self.offset(line: replacement.startLine, column: replacement.startColumn, in: lines)
            let end = try Self.offset(line: replacement.endLine, column: replacement.endColumn, in: lines)
            guard start <= end else {
                throw SentinelError(.invalidInput, "fix region \(Self.describe(replacement)) ends before it starts")
            }
            edits.append((start, end, order, replacement.text))
        }
        edits.sort { ($0.start, $0.end, $0.order) < ($1.start, $1.end, $1.order) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.text.utf8.count })
        var cursor = 0
        for edit in edits {
            guard edit.start >= cursor else {
                throw SentinelError(.invalidInput, "fix regions overlap at byte \(edit.start)")
            }
            out += bytes[cursor..<edit.start]
            out += edit.text.utf8
            cursor = edit.end
        }
        out += bytes[cursor...]
        return String(decoding: out, as: UTF8.self)
    }

    /// The byte offset of a 1-based line and code-point column; the column may be one past the
    /// line's last character (the end of a region reaching the line break).
    private static func offset(line: Int, column: Int, in lines: LineIndex) throws(SentinelError) -> Int {
        guard line >= 1, line <= lines.lineCount, column >= 1 else {
            throw SentinelError(.invalidInput, "fix position \(line):\(column) is outside the file (\(lines.lineCount) lines)")
        }
        let range = lines.range(ofLine: line)
        var offset = range.lowerBound
        var remaining = column - 1
        while remaining > 0 {
            guard offset < range.upperBound else {
                throw SentinelError(.invalidInput, "fix position \(line):\(column) is past the end of its line")
            }
            offset += 1
            // Continuation bytes (10xxxxxx) belong to the code point just passed.
            while offset < range.upperBound, lines.bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            remaining -= 1
        }
        return offset
    }

    private static func describe(_ r: Replacement) -> String {
        "\(r.startLine):\(r.startColumn)-\(r.endLine):\(r.endColumn)"
    }
}
