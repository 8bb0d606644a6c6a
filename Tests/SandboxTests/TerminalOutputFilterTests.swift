import Testing

@testable import Sandbox

/// What a `-t` payload's output may do to the caller's terminal: drawing passes, OSC 52
/// (clipboard), titles, DCS/APC/PM strings, window operations and C1 controls do not, however
/// the bytes are split across reads, and an endless sequence is never buffered without bound.
struct TerminalOutputFilterTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var input: [UInt8]
        var expected: [UInt8]
        var testDescription: String { name }

        init(_ name: String, _ input: String, _ expected: String) {
            self.name = name
            self.input = Array(input.utf8)
            self.expected = Array(expected.utf8)
        }

        init(_ name: String, bytes input: [UInt8], _ expected: [UInt8]) {
            self.name = name
            self.input = input
            self.expected = expected
        }
    }

    static let cases: [Case] = [
        Case("plain text and line endings", "hello\r\nworld\t!\u{8}", "hello\r\nworld\t!\u{8}"),
        Case("UTF-8 text", "h\u{e9}llo \u{2603} \u{1F600} \u{a0}", "h\u{e9}llo \u{2603} \u{1F600} \u{a0}"),
        Case(
            "SGR colours", "\u{1B}[1;31mred\u{1B}[0m \u{1B}[38;2;1;2;3mrgb\u{1B}[m",
            "\u{1B}[1;31mred\u{1B}[0m \u{1B}[38;2;1;2;3mrgb\u{1B}[m"),
        Case(
            "cursor movement and clearing", "\u{1B}[2J\u{1B}[H\u{1B}[10;5H\u{1B}[K\u{1B}[?25l\u{1B}[?1049h",
            "\u{1B}[2J\u{1B}[H\u{1B}[10;5H\u{1B}[K\u{1B}[?25l\u{1B}[?1049h"),
        Case(
            "save, restore, charset, keypad", "\u{1B}7\u{1B}8\u{1B}(0q\u{1B}(B\u{1B}=\u{1B}>\u{1B}M\u{1B}#8",
            "\u{1B}7\u{1B}8\u{1B}(0q\u{1B}(B\u{1B}=\u{1B}>\u{1B}M\u{1B}#8"),
        Case("bell alone passes", "ding\u{7}", "ding\u{7}"),
        Case("OSC 52 clipboard write (BEL)", "a\u{1B}]52;c;cm0gLXJmIH4=\u{7}b", "ab"),
        Case("OSC 52 clipboard write (ST)", "a\u{1B}]52;c;cm0gLXJmIH4=\u{1B}\\b", "ab"),
        Case("OSC 0/1/2 titles", "\u{1B}]0;pwned\u{7}\u{1B}]1;icon\u{7}\u{1B}]2;title\u{1B}\\ok", "ok"),
        Case("OSC 50 font, 4 palette, 10 colour query", "\u{1B}]50;fixed\u{7}\u{1B}]4;1;#ff0000\u{7}\u{1B}]10;?\u{7}x", "x"),
        Case("OSC without parameters", "\u{1B}]104\u{7}x", "x"),
        Case(
            "OSC 8 hyperlink passes", "\u{1B}]8;;https://example.com/\u{1B}\\link\u{1B}]8;;\u{1B}\\",
            "\u{1B}]8;;https://example.com/\u{1B}\\link\u{1B}]8;;\u{1B}\\"),
        Case("OSC 8 with a non-ASCII byte is dropped", "\u{1B}]8;;http://x/\u{e9}\u{7}text", "text"),
        Case("DCS (DECRQSS, sixel)", "\u{1B}P$qm\u{1B}\\\u{1B}Pq#0;2;0;0;0\u{1B}\\ok", "ok"),
        Case("APC, PM, SOS", "\u{1B}_Gf=100;AAAA\u{1B}\\\u{1B}^pm\u{1B}\\\u{1B}Xsos\u{1B}\\ok", "ok"),
        Case("window ops: title report, resize, move, iconify", "\u{1B}[21t\u{1B}[8;100;300t\u{1B}[3;0;0t\u{1B}[2t\u{1B}[22;0tok", "ok"),
        Case("UTF-8 switch is dropped", "\u{1B}%@x\u{1B}%Gy", "xy"),
        Case("ENQ (answerback) is dropped", "a\u{5}b", "ab"),
        Case("a C0 control inside CSI acts at once", "\u{1B}[1\n;2H", "\n\u{1B}[1;2H"),
        Case("CAN cancels a sequence", "\u{1B}[31\u{18}m", "m"),
        Case("ESC inside a string aborts it and starts anew", "\u{1B}]0;title\u{1B}[1mbold", "\u{1B}[1mbold"),
        Case("ESC inside CSI starts anew", "\u{1B}[12\u{1B}[2J", "\u{1B}[2J"),
        Case(
            "raw 8-bit C1: CSI, OSC, DCS", bytes: [0x9B, 0x32, 0x31, 0x74, 0x9D, 0x30, 0x3B, 0x78, 0x07, 0x90, 0x41],
            [0x32, 0x31, 0x74, 0x30, 0x3B, 0x78, 0x07, 0x41]),
        Case(
            "UTF-8 encoded C1 CSI and OSC", bytes: [0xC2, 0x9B, 0x32, 0x31, 0x74, 0xC2, 0x9D, 0x32],
            [0x32, 0x31, 0x74, 0x32]),
        Case("continuation bytes of a real character pass", bytes: [0xE2, 0x9B, 0x84, 0x41], [0xE2, 0x9B, 0x84, 0x41]),
    ]

    @Test(arguments: cases)
    func wholeInput(_ testCase: Case) {
        var filter = TerminalOutputFilter()
        #expect(filter.filter(testCase.input) == testCase.expected)
        #expect(filter.heldCount == 0)
    }

    /// The same inputs one byte per read, and split at every position in two reads.
    @Test(arguments: cases)
    func splitInput(_ testCase: Case) {
        var filter = TerminalOutputFilter()
        var output: [UInt8] = []
        for byte in testCase.input { filter.filter([byte], into: &output) }
        #expect(output == testCase.expected, "one byte per read")
        for cut in 0...testCase.input.count {
            var filter = TerminalOutputFilter()
            var output = filter.filter(testCase.input[..<cut])
            output += filter.filter(testCase.input[cut...])
            #expect(output == testCase.expected, "split at \(cut)")
        }
    }

    /// An incomplete sequence at the end is held back, so the caller's next output cannot complete it.
    @Test func anIncompleteSequenceIsNeverWritten() {
        var filter = TerminalOutputFilter()
        #expect(filter.filter(Array("text\u{1B}[2".utf8)) == Array("text".utf8))
        #expect(filter.filter(Array("1".utf8)) == [])
        var hyperlink = TerminalOutputFilter()
        #expect(hyperlink.filter(Array("\u{1B}]8;;https://a".utf8)) == [])
    }

    /// A never-terminated string or sequence holds at most a bounded number of bytes, however
    /// much follows, and the stream recovers at the next terminator.
    @Test func anEndlessSequenceStaysBounded() {
        let openings = [("\u{1B}]52;c;", "A"), ("\u{1B}]8;;", "A"), ("\u{1B}P", "A"), ("\u{1B}]", "A"), ("\u{1B}[", "1")]
        for (opening, filler) in openings {
            let chunk = [UInt8](repeating: UInt8(ascii: filler.unicodeScalars.first!), count: 64 << 10)
            var filter = TerminalOutputFilter()
            var output = filter.filter(Array(opening.utf8))
            for _ in 0..<64 {
                output += filter.filter(chunk)
                #expect(filter.heldCount <= TerminalOutputFilter.heldLimit, "\(opening.debugDescription)")
            }
            output += filter.filter(Array("\u{7}\u{1B}\\after".utf8))
            #expect(output.count < 4 << 10, "\(opening.debugDescription): \(output.count) bytes passed")
            #expect(String(decoding: output, as: UTF8.self).hasSuffix("after"), "\(opening.debugDescription)")
        }
    }
}
