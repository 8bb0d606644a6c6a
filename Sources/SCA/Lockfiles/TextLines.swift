import Findings
import SourcePositions

/// Splits lockfile bytes into lines with their 1-based numbers, after dropping a UTF-8 BOM.
/// `\n`, `\r\n` and a lone `\r` all end a line (`LineIndex`), so files edited on any platform
/// read alike.
struct TextLines {
    struct Line {
        let number: Int
        let bytes: ArraySlice<UInt8>
        var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    let lines: [Line]

    init(_ bytes: [UInt8]) {
        lines = TextLines.ranges(bytes).map { Line(number: $0.number, bytes: bytes[$0.range]) }
    }

    /// Each line's number and byte range in `bytes` (terminator excluded), the BOM left out of
    /// line 1. A final terminator ends the last line rather than starting an empty one.
    static func ranges(_ bytes: [UInt8]) -> [(number: Int, range: Range<Int>)] {
        let bom = bytes.count - droppingBOM(bytes).count
        let index = LineIndex(bytes)
        var result: [(number: Int, range: Range<Int>)] = []
        result.reserveCapacity(index.lineCount)
        for number in 1...index.lineCount {
            let range = index.range(ofLine: number)
            result.append((number, max(range.lowerBound, bom)..<max(range.upperBound, bom)))
        }
        if let last = result.last, last.range.lowerBound == bytes.count { result.removeLast() }
        return result
    }

    /// Lines ended by `\n` alone, BOM dropped, for formats whose tool reads a lone `\r` as part
    /// of a line (go.mod: space between tokens; go.sum: a field separator). Splitting there too
    /// would show Sentinel lines the tool never sees.
    static func lineFeedLines(_ bytes: [UInt8]) -> [Line] {
        let body = droppingBOM(bytes)
        var lines: [Line] = []
        var start = body.startIndex
        var number = 1
        for index in body.indices where body[index] == 0x0A {
            lines.append(Line(number: number, bytes: body[start..<index]))
            number += 1
            start = index + 1
        }
        if start < body.endIndex { lines.append(Line(number: number, bytes: body[start...])) }
        return lines
    }

    static func droppingBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return bytes[3...] }
        return bytes[...]
    }

    /// The text of the whole file without BOM, for readers (Yams) that take a `String`.
    static func string(_ bytes: [UInt8]) -> String {
        String(decoding: droppingBOM(bytes), as: UTF8.self)
    }
}

extension ArraySlice where Element == UInt8 {
    /// The slice without leading and trailing spaces and tabs.
    var trimmed: ArraySlice<UInt8> {
        var lo = startIndex
        var hi = endIndex
        while lo < hi, self[lo] == 0x20 || self[lo] == 0x09 { lo += 1 }
        while hi > lo, self[hi - 1] == 0x20 || self[hi - 1] == 0x09 { hi -= 1 }
        return self[lo..<hi]
    }

    /// Count of leading spaces (tabs count as one), for indentation-based formats.
    var indentation: Int {
        var n = 0
        for byte in self {
            guard byte == 0x20 || byte == 0x09 else { break }
            n += 1
        }
        return n
    }

    func hasPrefix(_ prefix: String) -> Bool {
        let p = prefix.utf8
        guard count >= p.count else { return false }
        return zip(self, p).allSatisfy { $0 == $1 }
    }
}
