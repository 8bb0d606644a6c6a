/// Secrets never appear in any output: only a short prefix (enough to find and rotate the
/// credential) and the length survive.
public enum Redaction {
    /// `AKIA…(redacted, 20 chars)`.
    public static func redact(_ secret: String) -> String {
        let keep = secret.count >= 16 ? 4 : (secret.count >= 8 ? 2 : 0)
        return "\(secret.prefix(keep))…(redacted, \(secret.count) chars)"
    }

    /// `line` with each byte range replaced by its redacted form, and where each range's
    /// redacted form is in the result (a range overlapping an earlier one shares its form).
    static func redacted(line: ArraySlice<UInt8>, ranges: [Range<Int>]) -> (bytes: [UInt8], positions: [Range<Int>]) {
        var bytes: [UInt8] = []
        var positions = [Range<Int>](repeating: 0..<0, count: ranges.count)
        var cursor = line.startIndex
        var last = 0..<0
        let order = ranges.indices.sorted { ranges[$0].lowerBound < ranges[$1].lowerBound }
        for index in order {
            let range = ranges[index]
            guard range.lowerBound >= cursor else {
                positions[index] = last
                continue
            }
            bytes += line[cursor..<range.lowerBound]
            let start = bytes.count
            bytes += redact(String(decoding: line[range], as: UTF8.self)).utf8
            last = start..<bytes.count
            positions[index] = last
            cursor = range.upperBound
        }
        bytes += line[cursor..<line.endIndex]
        return (bytes, positions)
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
