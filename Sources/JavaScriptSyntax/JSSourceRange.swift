import SourcePositions

/// A point in a JavaScript or TypeScript source file.
///
/// Lines and columns are 1-based; columns count UTF-8 bytes, as ``JSNode`` ranges do everywhere, so a
/// `<script>` block of a Vue or Svelte file keeps the columns of the file it came from.
public struct JSSourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// 1-based line number.
    public var line: Int
    /// 1-based column, in UTF-8 bytes.
    public var column: Int
    /// 0-based byte offset into the file.
    public var offset: Int

    /// Creates a location.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// Orders by byte offset.
    public static func < (lhs: JSSourceLocation, rhs: JSSourceLocation) -> Bool { lhs.offset < rhs.offset }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}

/// A half-open region `[start, end)` of a JavaScript or TypeScript source file.
public struct JSSourceRange: Sendable, Hashable, CustomStringConvertible {
    /// First byte of the region.
    public var start: JSSourceLocation
    /// Location just past the last byte of the region.
    public var end: JSSourceLocation

    /// Creates a range.
    public init(start: JSSourceLocation, end: JSSourceLocation) {
        self.start = start
        self.end = end
    }

    /// `line:column-line:column`.
    public var description: String { "\(start)-\(end)" }
}

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
    func location(_ offset: Int) -> JSSourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return JSSourceLocation(line: low + 1, column: offset - lineStarts[low] + 1, offset: offset)
    }

    /// The range of bytes `start..<end`.
    func range(_ start: Int, _ end: Int) -> JSSourceRange {
        JSSourceRange(start: location(start), end: location(max(start, end)))
    }
}

extension JSSourceLocation {
    /// The 1-based column in Unicode code points (what findings report), for a location in `lines`.
    public func codePointColumn(in lines: LineIndex) -> Int {
        lines.column(utf8Offset: column - 1, onLine: line)
    }
}
