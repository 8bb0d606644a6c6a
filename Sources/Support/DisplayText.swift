/// Text from outside (a queue row, a server's answer, a file name) made safe to print on a
/// terminal: lossy UTF-8 already, with C0 and C1 controls and DEL escaped (`\x1b`, `\x9b`), so
/// that it cannot drive the terminal, and bidi overrides, embeddings, isolates and marks escaped
/// (`\u{202e}`), so that it cannot reorder what the reader sees ("Trojan Source").
public enum DisplayText {
    /// `text` with every control and bidi control escaped; a line break too (one field, one line).
    public static func escaped(_ text: some StringProtocol) -> String {
        var shown = ""
        for scalar in text.unicodeScalars {
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
}
