import SourcePositions

/// Positions are SourcePositions' `SourceLocation` and `SourceRange`, shared with the Python
/// parser: lines and columns are 1-based, columns count UTF-8 bytes, so a `<script>` block of a
/// Vue or Svelte file keeps the columns of the file it came from. Clients of this module read them
/// without importing SourcePositions themselves.
@_exported import struct SourcePositions.SourceLocation
@_exported import struct SourcePositions.SourceRange

/// Byte offsets to lines and columns for one file, built once (the lexer works on offsets only).
struct JSLineMap: Sendable {
    /// Byte offset where each line starts; entry 0 is line 1.
    let lineStarts: [Int]

    /// Indexes `bytes`: LF, CR, CRLF, U+2028 and U+2029 end lines, as they do for JavaScript.
    init(_ bytes: [UInt8]) {
        var starts = [0]
        var i = 0
        let count = bytes.count
        while i < count {
            let byte = bytes[i]
            if byte == 0x0A {
                starts.append(i + 1)
            } else if byte == 0x0D {
                if i + 1 < count && bytes[i + 1] == 0x0A { i += 1 }
                starts.append(i + 1)
            } else if byte == 0xE2, i + 2 < count, bytes[i + 1] == 0x80, bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9 {
                i += 2
                starts.append(i + 1)
            }
            i += 1
        }
        lineStarts = starts
    }

    /// The location of byte `offset`.
    func location(_ offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return SourceLocation(line: low + 1, column: offset - lineStarts[low] + 1, offset: offset)
    }

    /// The range of bytes `start..<end`.
    func range(_ start: Int, _ end: Int) -> SourceRange {
        SourceRange(start: location(start), end: location(max(start, end)))
    }
}

extension SourceLocation {
    /// The 1-based column in Unicode code points (what findings report), for a location in `lines`.
    public func codePointColumn(in lines: LineIndex) -> Int {
        lines.column(utf8Offset: column - 1, onLine: line)
    }
}
