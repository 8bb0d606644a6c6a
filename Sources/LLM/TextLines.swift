/// Lines of text split at every LF. Swift's `Character` treats CRLF as one character, so
/// splitting a `String` at `"\n"` would miss every CRLF line end; this splits the UTF-8 bytes.
enum TextLines {
    /// The lines of `text`, a trailing CR kept; a final LF yields a last empty line.
    static func split(_ text: String) -> [String] {
        text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// The lines of `text` without their CRs (replies may come with CRLF line ends).
    static func splitDroppingCR(_ text: String) -> [String] {
        split(text).map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 }
    }
}
