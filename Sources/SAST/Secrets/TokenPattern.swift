/// A token with a fixed prefix followed by a run of allowed bytes, like `AKIA` + 16
/// uppercase alphanumerics: the shape of most provider-issued credentials. Matching works
/// on bytes with no regular expressions, so scanning large trees stays fast.
struct TokenPattern: Sendable {
    let ruleID: String
    let title: String
    let prefixes: [[UInt8]]
    let body: ByteSet
    let minimumBody: Int
    let maximumBody: Int
    /// Whether the byte before the token must not belong to `body` (a word boundary).
    let boundaryBefore: Bool

    init(
        _ ruleID: String, _ title: String, prefixes: [String], body: ByteSet, length: ClosedRange<Int>,
        boundaryBefore: Bool = true
    ) {
        self.ruleID = ruleID
        self.title = title
        self.prefixes = prefixes.map { Array($0.utf8) }
        self.body = body
        self.minimumBody = length.lowerBound
        self.maximumBody = length.upperBound
        self.boundaryBefore = boundaryBefore
    }

    /// Byte ranges of every match in `line`. The run of body bytes after the prefix must
    /// have an allowed length: a longer run is part of something else, not this token.
    /// Linear in the line: a prefix found inside the body run an earlier one measured
    /// (`xoxb-xoxb-…`) ends where that run ends, so no byte is read twice.
    func matches(in line: ArraySlice<UInt8>) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for prefix in prefixes {
            var runEnd = line.startIndex
            for index in ByteSearch.occurrences(of: prefix, in: line) {
                if boundaryBefore, index > line.startIndex, ByteSet.word.contains(line[index - 1]) { continue }
                let bodyStart = index + prefix.count
                // Occurrences come in order, so a body starting before `runEnd` starts inside it.
                if bodyStart >= runEnd {
                    runEnd = bodyStart
                    while runEnd < line.endIndex, body.contains(line[runEnd]) { runEnd += 1 }
                }
                let length = runEnd - bodyStart
                guard length >= minimumBody && length <= maximumBody else { continue }
                result.append(index..<runEnd)
            }
        }
        return ByteRanges.disjoint(result)
    }
}

/// A set of bytes, as a 256-bit bitmap.
struct ByteSet: Sendable {
    private var bits: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    init(_ ranges: [ClosedRange<UInt8>] = [], _ extra: String = "") {
        for range in ranges { for byte in range { insert(byte) } }
        for byte in extra.utf8 { insert(byte) }
    }

    mutating func insert(_ byte: UInt8) {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: bits.0 |= bit
        case 1: bits.1 |= bit
        case 2: bits.2 |= bit
        default: bits.3 |= bit
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        let bit = UInt64(1) << UInt64(byte & 63)
        switch byte >> 6 {
        case 0: return bits.0 & bit != 0
        case 1: return bits.1 & bit != 0
        case 2: return bits.2 & bit != 0
        default: return bits.3 & bit != 0
        }
    }

    static let upper = ByteSet([UInt8(ascii: "A")...UInt8(ascii: "Z")])
    static let digits = ByteSet([UInt8(ascii: "0")...UInt8(ascii: "9")])
    static let upperAlphanumeric = ByteSet([UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9")])
    static let alphanumeric = ByteSet([
        UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
        UInt8(ascii: "0")...UInt8(ascii: "9"),
    ])
    static let word = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "_")
    static let base64 = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "+/=")
    static let urlSafe = ByteSet(
        [
            UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
        ], "-_")
}
