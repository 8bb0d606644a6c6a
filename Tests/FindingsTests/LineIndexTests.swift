import Testing

@testable import Findings
@testable import SourcePositions

@Suite struct LineIndexTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var source: String
        /// The text of every line, in order.
        var lines: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "LF", source: "a\nbc\n", lines: ["a", "bc", ""]),
        Case(name: "CRLF", source: "a\r\nbc\r\n", lines: ["a", "bc", ""]),
        Case(name: "lone CR", source: "a\rbc\r", lines: ["a", "bc", ""]),
        Case(name: "mixed", source: "a\r\nb\rc\nd", lines: ["a", "b", "c", "d"]),
        Case(name: "empty file", source: "", lines: [""]),
        Case(name: "no trailing newline", source: "x = 1\ny = 2", lines: ["x = 1", "y = 2"]),
        Case(name: "blank lines", source: "\n\r\n\r", lines: ["", "", "", ""]),
        Case(name: "LF CR is two terminators", source: "a\n\rb", lines: ["a", "", "b"]),
        Case(name: "multibyte", source: "é = 'ü'\r\n€", lines: ["é = 'ü'", "€"]),
    ]

    @Test(arguments: cases)
    func linesAndOffsets(_ c: Case) {
        let index = LineIndex(c.source)
        #expect(index.lineCount == c.lines.count)
        #expect((1...index.lineCount).map { index.text(ofLine: $0) } == c.lines)
        #expect(index.lines(1, index.lineCount) == c.lines.joined(separator: "\n"))
        // Every byte of a line, and its terminator, is on that line.
        for line in 1...index.lineCount {
            let range = index.range(ofLine: line)
            let next = line < index.lineCount ? index.lineStarts[line] : index.bytes.count
            for offset in range.lowerBound..<next {
                #expect(index.line(containingOffset: offset) == line, "offset \(offset)")
            }
        }
        #expect(index.line(containingOffset: index.bytes.count) == index.lineCount)
    }

    @Test func columnsCountCodePoints() {
        // "é" and "ü" are 2 bytes, "€" 3 bytes.
        let index = LineIndex("é = 'ü'\r\n€x")
        #expect(index.column(ofOffset: 0) == 1)
        #expect(index.column(ofOffset: 2) == 2)  // the space after é
        #expect(index.column(ofOffset: 6) == 6)  // ü
        #expect(index.column(ofOffset: 8) == 7)  // the closing quote
        #expect(index.column(ofOffset: 9) == 8)  // the CR: just past the last character
        #expect(index.column(ofOffset: 10) == 8)  // the LF of the same CRLF
        #expect(index.column(ofOffset: 11) == 1)  // €, line 2
        #expect(index.line(containingOffset: 11) == 2)
        #expect(index.column(ofOffset: 14) == 2)  // x
        #expect(index.column(utf8Offset: 3, onLine: 2) == 2)
    }

    @Test func linesOutsideTheFileAreEmpty() {
        let index = LineIndex("a\nb")
        #expect(index.text(ofLine: 0) == "")
        #expect(index.text(ofLine: 3) == "")
        #expect(index.lines(2, 9) == "b")
        #expect(index.lines(3, 9) == "")
        #expect(index.line(containingOffset: -5) == 1)
        #expect(index.line(containingOffset: 99) == 2)
    }

    @Test func bytesAndDataGiveTheSameIndex() {
        let text = "a\r\nb\rc"
        #expect(LineIndex(Array(text.utf8)).lineStarts == LineIndex(text).lineStarts)
        #expect(LineIndex(text).lineStarts == [0, 3, 5])
    }
}
