/// Which bytes of UTF-8 source can make up a Python identifier, as the lexer reads them: ASCII
/// letters, `_`, digits after the first byte, and every byte of a non-ASCII character.
public enum PythonIdentifier {
    /// Whether an identifier can start with `byte`.
    @inlinable public static func isStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A || byte == 95 || byte >= 0x80
    }

    /// Whether `byte` can continue an identifier.
    @inlinable public static func isContinue(_ byte: UInt8) -> Bool {
        isStart(byte) || (byte >= 48 && byte <= 57)
    }
}
