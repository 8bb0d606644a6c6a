/// Text from outside (a queue row, a server's answer, a file name) made safe to print on a
/// terminal: lossy UTF-8 already, with C0 and C1 controls and DEL escaped (`\x1b`, `\x9b`), so
/// that it cannot drive the terminal, and bidi overrides, embeddings, isolates and marks escaped
/// (`\u{202e}`), so that it cannot reorder what the reader sees ("Trojan Source"), and never a
/// GitHub Actions workflow command (issue 76, H7): the runner reads every line a step prints,
/// and a line whose first non-blank characters are `::`, or one holding `##[`, can mask a value
/// (`::add-mask::`), annotate any file (`::error file=…::`) or stop the reading of commands
/// (`::stop-commands::`). The one escaping of every line printed from outside text; `multiline`
/// is the same for a block (a patch, a pull request's body) that keeps its line feeds and tabs.
/// What counts as acting on the terminal (`actsOnTerminal`) is also what the sandbox's `-t`
/// relay drops from a payload's output (`TerminalOutputFilter`): one definition for both.
public enum DisplayText {
    /// Whether `scalar` drives a terminal or the order of what it shows rather than being shown:
    /// a C0 control, DEL, a C1 control (U+0080–U+009F: `U+009B` is CSI, `U+009D` OSC to a
    /// terminal that reads C1 in UTF-8), or a bidi override, embedding, isolate or mark
    /// (U+061C, U+200E/F, U+202A–E, U+2066–9), which would let text reorder itself on a terminal
    /// that implements bidi. Everything else is printable text.
    public static func actsOnTerminal(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// `text` as a block of lines: each line as `line` shows one (every control and bidi control
    /// escaped, no workflow command), except that line feeds and tabs are kept. A carriage return
    /// is escaped (`\x0d`): it would let a later part of a line overwrite what the reader saw.
    public static func multiline(_ text: some StringProtocol) -> String {
        // By scalar: split by Character, "\r\n" is one and would not be cut.
        text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
            .map { inert(escaped(String(String.UnicodeScalarView($0)), keepingTabs: true)) }.joined(separator: "\n")
    }

    /// `text` as one line: every control and bidi control escaped, a line break too (one field,
    /// one line), and no workflow command, whether it starts the line or not.
    public static func line(_ text: some StringProtocol) -> String {
        inert(escaped(text))
    }

    /// `text` with every control and bidi control escaped; a line break too (one field, one line).
    /// A `##[` (the runner's older command form, read anywhere in a line) is broken (`##\x5b`).
    public static func escaped(_ text: some StringProtocol) -> String {
        escaped(text, keepingTabs: false)
    }

    private static func escaped(_ text: some StringProtocol, keepingTabs: Bool) -> String {
        var shown = ""
        var hashes = 0
        for scalar in text.unicodeScalars {
            defer { hashes = scalar == "#" ? hashes + 1 : 0 }
            if scalar == "[" && hashes >= 2 {
                shown += "\\x5b"
                continue
            }
            let value = scalar.value
            if !actsOnTerminal(value) || (keepingTabs && value == 0x09) {
                shown.unicodeScalars.append(scalar)
            } else if value <= 0x9F {
                shown += "\\x" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
            } else {
                shown += "\\u{" + String(value, radix: 16) + "}"
            }
        }
        return shown
    }

    /// `line` (already one line: no line break) unable to act as a workflow command: a first
    /// non-blank `:` before another one is escaped (`\x3a:add-mask::…`), and so is the `[` of any
    /// `##[`. Controls and colours of the line are left as they are: the line is the caller's.
    public static func inert(_ line: some StringProtocol) -> String {
        let text = String(line).replacing("##[", with: "##\\x5b")
        // The runner trims leading white space (.NET's, Unicode's) before looking for `::`.
        guard let first = text.unicodeScalars.firstIndex(where: { !$0.properties.isWhitespace }),
            text.unicodeScalars[first...].starts(with: "::".unicodeScalars)
        else { return text }
        var scalars = text.unicodeScalars
        scalars.replaceSubrange(first...first, with: "\\x3a".unicodeScalars)
        return String(scalars)
    }
}
