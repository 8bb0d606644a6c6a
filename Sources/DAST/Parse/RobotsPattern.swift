import Web

/// RFC 9309 pattern matching without backtracking: a pattern is literal pieces separated by
/// `*`, and matching each piece at its leftmost place after the previous one is exact for
/// such globs. Each piece is found with a linear search, so a hostile `*a*a*a...` pattern
/// costs one pass over the path.
enum RobotsPattern {
    /// Whether `pattern` matches a prefix of `path` (the whole path when it ends with `$`).
    static func matches(_ pattern: [UInt8], _ path: [UInt8]) -> Bool {
        let anchored = pattern.last == UInt8(ascii: "$")
        let pieces = (anchored ? pattern.dropLast() : pattern[...]).split(
            separator: UInt8(ascii: "*"), omittingEmptySubsequences: false)
        guard let first = pieces.first, path.starts(with: first) else { return false }
        if pieces.count == 1 { return !anchored || path.count == first.count }
        var position = first.count
        for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
            guard let found = ByteSearch.offsets(of: Array(piece), in: path, range: position..<path.count, limit: 1).first
            else { return false }
            position = found + piece.count
        }
        let last = pieces[pieces.count - 1]
        if anchored { return path.count - last.count >= position && path.suffix(last.count).elementsEqual(last) }
        return last.isEmpty || ByteSearch.contains(Array(last), in: path, range: position..<path.count)
    }

    /// A path or pattern with non-ASCII and unsafe bytes percent-encoded and escapes' hex
    /// uppercased, so `/ü` and `/%c3%bc` compare equal as RFC 9309 asks.
    static func normalized(_ text: String) -> String {
        URLText.encodingUnsafe(text, uppercasing: true)
    }
}
