/// Secrets never appear in any output: only a short prefix (enough to find and rotate the
/// credential) and the length survive.
public enum Redaction {
    /// `AKIA…(redacted, 20 chars)`.
    public static func redact(_ secret: String) -> String {
        let keep = secret.count >= 16 ? 4 : (secret.count >= 8 ? 2 : 0)
        return "\(secret.prefix(keep))…(redacted, \(secret.count) chars)"
    }

    /// `line` with each byte range replaced by its redacted form.
    static func redact(line: ArraySlice<UInt8>, ranges: [Range<Int>]) -> String {
        var result = ""
        var cursor = line.startIndex
        for range in ranges.sorted(by: { $0.lowerBound < $1.lowerBound }) where range.lowerBound >= cursor {
            result += String(decoding: line[cursor..<range.lowerBound], as: UTF8.self)
            result += redact(String(decoding: line[range], as: UTF8.self))
            cursor = range.upperBound
        }
        result += String(decoding: line[cursor..<line.endIndex], as: UTF8.self)
        return result
    }
}
