/// Column arithmetic for scanners that work on UTF-8 bytes: findings count columns in Unicode
/// code points (SARIF `columnKind: unicodeCodePoints`), which differ from byte offsets as soon
/// as a line holds a non-ASCII character.
public enum SourceColumn {
    /// The 1-based code-point column of the byte at `utf8Offset` in `line` (the line's bytes, no
    /// newline). Offsets past the end give the column just after the last character.
    public static func column(utf8Offset: Int, in line: some Collection<UInt8>) -> Int {
        var column = 1
        var seen = 0
        for byte in line {
            if seen >= utf8Offset { break }
            // Continuation bytes (10xxxxxx) belong to the code point already counted.
            if byte & 0xC0 != 0x80 { column += 1 }
            seen += 1
        }
        return column
    }
}
