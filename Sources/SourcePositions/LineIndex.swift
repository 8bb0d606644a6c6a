import Foundation

/// The lines of one file, built once from its bytes: the single answer to "which line is this
/// offset on" and "what is line N" for every scanner, so that all of them agree on line numbers.
///
/// LF, CRLF (one terminator) and a lone CR each end a line. A file ending with a terminator has
/// one more, empty, line after it (where an offset at the end of the file falls); an empty file
/// has one empty line. Offsets are UTF-8 byte offsets; columns count Unicode code points
/// (SARIF `columnKind: unicodeCodePoints`), 1-based.
public struct LineIndex: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// Byte offset where each line starts; entry 0 is line 1 and is always 0.
    public let lineStarts: [Int]
    /// Where the language's tokenizer found comments (the byte offset of each comment sign), for
    /// a file Sentinel tokenizes (Python): a suppression counts only in a comment, never in a
    /// string literal. Nil: not known, and a comment sign anywhere on the line counts.
    public var commentStarts: Set<Int>?

    /// Indexes `bytes`.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var starts = [0]
        bytes.withUnsafeBufferPointer { b in
            guard let base = b.baseAddress, !b.isEmpty else { return }
            let count = b.count
            if memchr(base, 0x0D, count) == nil {
                // LF only, the common case: memchr is vectorised, far faster than a byte loop.
                var from = 0
                while from < count, let hit = memchr(base + from, 0x0A, count - from) {
                    from = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit)) + 1
                    starts.append(from)
                }
                return
            }
            var i = 0
            while i < count {
                let byte = b[i]
                if byte == 0x0A {
                    starts.append(i + 1)
                } else if byte == 0x0D {
                    // CRLF is one terminator: the line starts after the LF.
                    if i + 1 < count && b[i + 1] == 0x0A { i += 1 }
                    starts.append(i + 1)
                }
                i += 1
            }
        }
        lineStarts = starts
    }

    /// Indexes the UTF-8 bytes of `text`.
    public init(_ text: String) {
        self.init(Array(text.utf8))
    }

    /// Indexes `data`.
    public init(_ data: Data) {
        self.init([UInt8](data))
    }

    /// Number of lines (at least 1).
    public var lineCount: Int { lineStarts.count }

    /// The 1-based line holding byte `offset`. A terminator belongs to the line it ends; offsets
    /// outside the file are clamped to it.
    public func line(containingOffset offset: Int) -> Int {
        // Binary search for the last line start <= offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        return low + 1
    }

    /// The byte range of 1-based `line` without its terminator; empty for lines outside the file.
    public func range(ofLine line: Int) -> Range<Int> {
        guard line >= 1, line <= lineStarts.count else { return bytes.count..<bytes.count }
        let start = lineStarts[line - 1]
        guard line < lineStarts.count else { return start..<bytes.count }
        var end = lineStarts[line]
        if end > start, bytes[end - 1] == 0x0A { end -= 1 }
        if end > start, bytes[end - 1] == 0x0D { end -= 1 }
        return start..<end
    }

    /// The bytes of 1-based `line` without its terminator.
    public func bytes(ofLine line: Int) -> ArraySlice<UInt8> {
        bytes[range(ofLine: line)]
    }

    /// The text of 1-based `line` without its terminator (invalid UTF-8 repaired).
    public func text(ofLine line: Int) -> String {
        String(decoding: bytes(ofLine: line), as: UTF8.self)
    }

    /// Lines `first...last` (clamped to the file) joined with `\n`, whatever the file used.
    public func lines(_ first: Int, _ last: Int) -> String {
        let lower = max(1, first)
        let upper = min(lineCount, last)
        guard lower <= upper else { return "" }
        return (lower...upper).map { text(ofLine: $0) }.joined(separator: "\n")
    }

    /// The 1-based code-point column of byte `offset` on its line. An offset inside a terminator
    /// gives the column just after the line's last character.
    public func column(ofOffset offset: Int) -> Int {
        let line = line(containingOffset: offset)
        let start = lineStarts[line - 1]
        return SourceColumn.column(utf8Offset: offset - start, in: bytes(ofLine: line))
    }

    /// The 1-based code-point column of the byte `utf8Offset` bytes into 1-based `line`.
    public func column(utf8Offset: Int, onLine line: Int) -> Int {
        SourceColumn.column(utf8Offset: utf8Offset, in: bytes(ofLine: line))
    }
}
