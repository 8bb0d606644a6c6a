/// Substring search over bytes in linear time (Knuth–Morris–Pratt), so a hostile page full of
/// near-matches of a marker cannot make the search quadratic.
enum ByteSearch {
    /// Start offsets of `needle` in `haystack[range]` (overlapping ones included), at most `limit`.
    static func offsets(of needle: [UInt8], in haystack: [UInt8], range: Range<Int>? = nil, limit: Int = .max) -> [Int] {
        let range = range ?? 0..<haystack.count
        guard !needle.isEmpty, limit > 0 else { return [] }
        let failure = failureTable(needle)
        var found: [Int] = []
        var matched = 0
        for index in range {
            let byte = haystack[index]
            while matched > 0, needle[matched] != byte { matched = failure[matched - 1] }
            if needle[matched] == byte { matched += 1 }
            if matched == needle.count {
                found.append(index + 1 - needle.count)
                if found.count == limit { break }
                matched = failure[matched - 1]
            }
        }
        return found
    }

    /// Whether `needle` occurs in `haystack[range]`.
    static func contains(_ needle: [UInt8], in haystack: [UInt8], range: Range<Int>) -> Bool {
        !offsets(of: needle, in: haystack, range: range, limit: 1).isEmpty
    }

    /// For each prefix of `needle`, the length of its longest proper prefix that is also a suffix.
    private static func failureTable(_ needle: [UInt8]) -> [Int] {
        var table = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0, needle[index] != needle[length] { length = table[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            table[index] = length
        }
        return table
    }
}
