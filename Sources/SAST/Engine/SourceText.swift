import Findings
import Foundation
import PythonSyntax
import Synchronization
import SourcePositions

/// A file's bytes with its lines, for slicing matched regions and converting byte columns
/// into the code-point columns findings use.
struct SourceText: Sendable {
    /// The file's lines (LF, CRLF and lone CR end one, as in the Python lexer).
    let index: LineIndex
    /// The file as a string, for regular expressions run over a region of it.
    let string: String
    private let utf16 = UTF16Offsets()

    init(_ source: String) {
        string = source
        index = LineIndex(source)
    }

    /// The file's UTF-8 bytes.
    var bytes: [UInt8] { index.bytes }

    /// Number of lines in the file.
    var lineCount: Int { index.lineCount }

    /// The UTF-16 range of the bytes `[from, to)` (what NSRegularExpression counts in).
    func utf16Range(from: Int, to: Int) -> NSRange {
        let lower = utf16.offset(ofByte: max(0, min(from, bytes.count)), in: bytes)
        let upper = utf16.offset(ofByte: max(from, min(to, bytes.count)), in: bytes)
        return NSRange(location: lower, length: max(0, upper - lower))
    }

    /// Text of the bytes `[from, to)`, clamped to the file.
    func slice(from: Int, to: Int) -> String {
        let lower = max(0, min(from, bytes.count))
        let upper = max(lower, min(to, bytes.count))
        return String(decoding: bytes[lower..<upper], as: UTF8.self)
    }

    /// The bytes of a 1-based line without its line break.
    func lineBytes(_ line: Int) -> ArraySlice<UInt8> {
        index.bytes(ofLine: line)
    }

    /// Whole lines `first...last`, joined with `\n`.
    func lines(_ first: Int, _ last: Int) -> String {
        index.lines(first, last)
    }

    /// The line break (LF, CRLF or CR) that ends 1-based `line`; nil on the last line.
    func lineBreak(endingLine line: Int) -> String? {
        guard line >= 1, line < index.lineCount else { return nil }
        return String(decoding: bytes[index.range(ofLine: line).upperBound..<index.lineStarts[line]], as: UTF8.self)
    }

    /// The file's first line break, LF when it has none: what inserted lines end with.
    var firstLineBreak: String { lineBreak(endingLine: 1) ?? "\n" }

    /// A finding location for `range` in `file`, columns in code points.
    func location(_ range: SourceRange, file: String) -> Location {
        Location(
            file: file, startLine: range.start.line, startColumn: column(range.start),
            endLine: range.end.line, endColumn: column(range.end))
    }

    func column(_ location: SourceLocation) -> Int {
        index.column(utf8Offset: location.column - 1, onLine: location.line)
    }
}

/// Byte offset → UTF-16 offset, built on first use (only metavariable-regex needs it). ASCII files,
/// the common case, need no table.
final class UTF16Offsets: Sendable {
    /// nil until first use; then nil for an ASCII file, else the table.
    private let built = Mutex<(table: [Int32]?, ascii: Bool?)>((nil, nil))

    func offset(ofByte byte: Int, in bytes: [UInt8]) -> Int {
        built.withLock { built in
            if built.ascii == nil {
                let isASCII = bytes.allSatisfy { $0 < 0x80 }
                built.ascii = isASCII
                if !isASCII { built.table = Self.build(bytes) }
            }
            guard let table = built.table, byte < table.count else {
                return byte < bytes.count ? byte : (built.table?.last.map(Int.init) ?? byte)
            }
            return Int(table[byte])
        }
    }

    /// Entry `i` is the UTF-16 offset of byte `i`; one extra entry for the end.
    private static func build(_ bytes: [UInt8]) -> [Int32] {
        var out = [Int32](repeating: 0, count: bytes.count + 1)
        var units: Int32 = 0
        for (i, byte) in bytes.enumerated() {
            out[i] = units
            if byte & 0xC0 != 0x80 { units += byte >= 0xF0 ? 2 : 1 }
        }
        out[bytes.count] = units
        return out
    }
}
