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
    /// For each block of 64 bytes (``blockShift``), the line its first byte is on (0-based): a location
    /// starts there and steps over the few lines that start inside the block, where a binary
    /// search over every line (twice a node) was an eighth of parsing (issue 77).
    private let blockLines: [Int32]
    /// log2 of the block size.
    private static let blockShift = 6

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
        var blocks = [Int32](repeating: 0, count: (count >> Self.blockShift) + 1)
        var line = 0
        for block in blocks.indices {
            let first = block << Self.blockShift
            while line + 1 < starts.count && starts[line + 1] <= first { line += 1 }
            blocks[block] = Int32(line)
        }
        blockLines = blocks
    }

    /// The location of byte `offset` (an offset past the end is on the last line).
    func location(_ offset: Int) -> SourceLocation {
        let block = min(max(offset, 0) >> Self.blockShift, blockLines.count - 1)
        var line = Int(blockLines[block])
        while line + 1 < lineStarts.count && lineStarts[line + 1] <= offset { line += 1 }
        return SourceLocation(line: line + 1, column: offset - lineStarts[line] + 1, offset: offset)
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
