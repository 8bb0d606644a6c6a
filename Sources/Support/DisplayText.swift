/// Text from outside (a queue row, a server's answer, a file name) made safe to print on a
/// terminal: lossy UTF-8 already, with C0 and C1 controls and DEL escaped (`\x1b`, `\x9b`), so
/// that it cannot drive the terminal, and bidi overrides, embeddings, isolates and marks escaped
/// (`\u{202e}`), so that it cannot reorder what the reader sees ("Trojan Source"), and never a
/// GitHub Actions workflow command (issue 76, H7): the runner reads every line a step prints,
/// and a line whose first non-blank characters are `::`, or one holding `##[`, can mask a value
/// (`::add-mask::`), annotate any file (`::error file=…::`) or stop the reading of commands
/// (`::stop-commands::`). The one escaping of every line printed from outside text.
public enum DisplayText {
    /// `text` as one line: every control and bidi control escaped, a line break too (one field,
    /// one line), and no workflow command, whether it starts the line or not.
    public static func line(_ text: some StringProtocol) -> String {
        inert(escaped(text))
    }

    /// `text` with every control and bidi control escaped; a line break too (one field, one line).
    /// A `##[` (the runner's older command form, read anywhere in a line) is broken (`##\x5b`).
    public static func escaped(_ text: some StringProtocol) -> String {
        var shown = ""
        var hashes = 0
        for scalar in text.unicodeScalars {
            defer { hashes = scalar == "#" ? hashes + 1 : 0 }
            if scalar == "[" && hashes >= 2 {
                shown += "\\x5b"
                continue
            }
            switch scalar.value {
            case 0..<0x20, 0x7F...0x9F:
                shown += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069:
                shown += "\\u{" + String(scalar.value, radix: 16) + "}"
            default:
                shown.unicodeScalars.append(scalar)
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
