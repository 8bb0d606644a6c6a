import Testing

@testable import JavaScriptSyntax

/// The line map's block index gives every offset the line a search over all line starts gives:
/// every kind of line end, lines much longer and much shorter than a block, offsets past the end.
@Suite struct JSLineMapTests {
    @Test("each offset's line and column are those of the last line start at or before it")
    func everyOffsetIsOnTheLineASearchFinds() {
        var bytes: [UInt8] = []
        var generator = SystemRandomNumberGenerator()
        let ends: [[UInt8]] = [[0x0A], [0x0D], [0x0D, 0x0A], [0xE2, 0x80, 0xA8], [0xE2, 0x80, 0xA9]]
        for index in 0..<400 {
            // Empty lines, short ones and lines of several blocks (a minified file's one line).
            let length = index % 50 == 0 ? 500 : Int.random(in: 0..<20, using: &generator)
            bytes += [UInt8](repeating: UInt8(ascii: "x"), count: length)
            bytes += ends[Int.random(in: 0..<ends.count, using: &generator)]
        }
        let map = JSLineMap(bytes)
        for offset in 0...(bytes.count + 3) {
            let line = map.lineStarts.lastIndex { $0 <= offset } ?? 0
            let location = map.location(offset)
            #expect(location.line == line + 1 && location.column == offset - map.lineStarts[line] + 1, "offset \(offset)")
        }
        #expect(JSLineMap([]).location(0).line == 1)
        #expect(JSLineMap(Array("a\nb".utf8)).location(2) == SourceLocation(line: 2, column: 1, offset: 2))
    }
}
