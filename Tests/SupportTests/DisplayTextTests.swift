import Testing

@testable import Support

/// Issue 76, H7: the one escaping of a line printed from outside text. A GitHub runner reads
/// every line a step prints; `::` first (after blanks) or `##[` anywhere is a workflow command.
struct DisplayTextTests {
    @Test(arguments: [
        ("a\n::add-mask::x", #"a\x0a::add-mask::x"#), ("::error file=a.py::b", #"\x3a:error file=a.py::b"#),
        ("  \t::stop-commands::t", #"  \x09::stop-commands::t"#), ("\u{00A0}::warning::w", "\u{00A0}\\x3a:warning::w"),
        ("x ##[add-mask]y", #"x ##\x5badd-mask]y"#), ("###[x", #"###\x5bx"#), ("a: ::1", "a: ::1"), ("#[x] # [y]", "#[x] # [y]"),
        ("\u{1B}[31mred\r\n", #"\x1b[31mred\x0d\x0a"#), ("\u{202E}evil", #"\u{202e}evil"#),
    ])
    func aLineFromOutsideIsOneInertLine(text: String, shown: String) {
        #expect(DisplayText.line(text) == shown)
    }

    @Test func inertKeepsTheCallersOwnLineButNoCommand() {
        #expect(DisplayText.inert("\u{1B}[1;31merror\u{1B}[0m: x") == "\u{1B}[1;31merror\u{1B}[0m: x")
        #expect(DisplayText.inert(" ::notice::n") == #" \x3a:notice::n"#)
        #expect(DisplayText.inert("::") == #"\x3a:"#)
        #expect(DisplayText.inert(":x") == ":x")
    }

    /// Issue 78, W5: a block (a patch, a PR's body) keeps its line feeds and tabs; every other
    /// control, a carriage return included, is visible, and no line is a workflow command.
    @Test func aBlockKeepsLinesAndTabsAndNothingElse() {
        let text = "a\tb\r\n\u{1B}]52;c;eA==\u{7}\n::add-mask::s\n\u{9B}2J \u{2067}x\n"
        #expect(DisplayText.multiline(text) == "a\tb\\x0d\n\\x1b]52;c;eA==\\x07\n\\x3a:add-mask::s\n\\x9b2J \\u{2067}x\n")
        #expect(DisplayText.multiline("") == "")
    }

    /// What acts on a terminal: controls and bidi controls, and nothing printable.
    @Test func whatActsOnATerminal() {
        for acting: UInt32 in [0, 0x9, 0xA, 0x1B, 0x7F, 0x80, 0x9B, 0x9F, 0x061C, 0x200E, 0x202E, 0x2069] {
            #expect(DisplayText.actsOnTerminal(acting), "\(acting)")
        }
        for shown: UInt32 in [0x20, 0x7E, 0xA0, 0xE9, 0x2603, 0x1F600, 0xFFFD, 0x10FFFF] {
            #expect(!DisplayText.actsOnTerminal(shown), "\(shown)")
        }
    }
}
