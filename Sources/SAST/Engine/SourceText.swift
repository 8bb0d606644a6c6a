import Findings
import Foundation
import PythonSyntax

/// A file's bytes with its line starts, for slicing matched regions and converting byte columns
/// into the code-point columns findings use.
struct SourceText: Sendable {
    let bytes: [UInt8]
    /// Byte offset where each line starts (index 0 is line 1).
    let lineStarts: [Int]
    /// The file as a string, for regular expressions run over a region of it.
    let string: String
    private let utf16 = UTF16Offsets()

    init(_ source: String) {
        string = source
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

/// Byte offset → UTF-16 offset, built on first use (only metavariable-regex needs it). ASCII files,
/// the common case, need no table.
final class UTF16Offsets: @unchecked Sendable {
    private var table: [Int32]?
    private var ascii: Bool?
    private let lock = NSLock()

    func offset(ofByte byte: Int, in bytes: [UInt8]) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if ascii == nil {
            let isASCII = bytes.allSatisfy { $0 < 0x80 }
            ascii = isASCII
            if !isASCII { table = Self.build(bytes) }
        }
        guard let table, byte < table.count else { return byte < bytes.count ? byte : (self.table?.last.map(Int.init) ?? byte) }
        return Int(table[byte])
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
