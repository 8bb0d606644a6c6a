import Findings

/// A file's bytes with its line starts, for slicing matched regions and converting byte columns
/// into the code-point columns findings use.
struct SourceText: Sendable {
    let bytes: [UInt8]
    /// Byte offset where each line starts (index 0 is line 1).
    let lineStarts: [Int]

    init(_ source: String) {
        let bytes = Array(source.utf8)
        var starts = [0]
        var i = 0
        while i < bytes.count {
            if bytes[i] == 10 { starts.append(i + 1) }
            i += 1
        }
        self.bytes = bytes
        lineStarts = starts
    }

    /// Text of the bytes `[from, to)`, clamped to the file.
    func slice(from: Int, to: Int) -> String {
        let lower = max(0, min(from, bytes.count))
        let upper = max(lower, min(to, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// The bytes of a 1-based line without its line break.
    func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        guard line >= 1, line <= lineStarts.count else { return [] }
        let start = lineStarts[line - 1]
        var end = line < lineStarts.count ? lineStarts[line] : bytes.count
        while end > start, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        return bytes[start..<end]
    }

    /// Whole lines `first...last`, joined with `\n`.
    func lines(_ first: Int, _ last: Int) -> String {
        guard first <= last else { return "" }
        return (first...last).map { String(decoding: lineBytes($0), as: UTF8.self) }.joined(separator: "\n")
    }

    /// A finding location for `range` in `file`, columns in code points.
    func location(_ range: SourceRange, file: String) -> Location {
        Location(
            file: file, startLine: range.start.line, startColumn: column(range.start),
            endLine: range.end.line, endColumn: column(range.end))
    }

    func column(_ location: SourceLocation) -> Int {
        SourceColumn.column(utf8Offset: location.column - 1, in: lineBytes(location.line))
    }
}
