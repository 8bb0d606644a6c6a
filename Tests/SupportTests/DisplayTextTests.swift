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
}
